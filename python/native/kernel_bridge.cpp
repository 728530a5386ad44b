#include "python/native/kernel_bridge.hpp"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL weft_numpy_api
#include <numpy/arrayobject.h>

#include <frameobject.h>

#include <exception>
#include <stdexcept>
#include <vector>

#include "python/native/python_values.hpp"

namespace weft::python {
namespace {

PyObject* cpp_unwind = nullptr;   // weft._weft.CppUnwind (BaseException)
PyObject* kernel_misuse = nullptr;  // weft._weft.KernelMisuse (Exception)

// ---- C++ exceptions through Python frames ----

struct Carried {
  std::exception_ptr error;
};

void carry_current_exception() {
  auto* carried = new Carried{std::current_exception()};
  PyObject* capsule = PyCapsule_New(carried, "weft.carried", [](PyObject* self) {
    delete static_cast<Carried*>(PyCapsule_GetPointer(self, "weft.carried"));
  });
  PyErr_SetObject(cpp_unwind, capsule);
  Py_DECREF(capsule);
}

// Runs `call`; a C++ exception becomes CppUnwind (returns null), a Python error stays set.
template <class Call>
PyObject* guarded(Call&& call) {
  try {
    return call();
  } catch (...) {
    carry_current_exception();
    return nullptr;
  }
}

// ---- Core ----

struct CoreObject {
  PyObject_HEAD
  sim::Core* core;
  FileNames* files;
};

PyTypeObject core_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

// The live core of `object`, or null with KernelMisuse set.
sim::Core* live(PyObject* object, const char* what) {
  auto* core = reinterpret_cast<CoreObject*>(object);
  if (core->core == nullptr) {
    PyErr_Format(kernel_misuse, "%s kept past the kernel that made it (its execution has ended)", what);
    return nullptr;
  }
  return core->core;
}

// ---- Ref ----

struct RefObject {
  PyObject_HEAD
  PyObject* core;
  model::Slice slice;
  std::array<std::int8_t, model::max_rank> view_dim;
  std::uint64_t launch;
};

PyTypeObject ref_type = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject at_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

struct AtObject {
  PyObject_HEAD
  PyObject* ref;
};

RefObject* make_ref(PyObject* core, const model::Slice& slice, std::uint64_t launch) {
  auto* ref = PyObject_New(RefObject, &ref_type);
  if (ref == nullptr) return nullptr;
  Py_INCREF(core);
  ref->core = core;
  ref->slice = slice;
  for (int d = 0; d < model::max_rank; ++d) ref->view_dim[d] = static_cast<std::int8_t>(d);
  ref->launch = launch;
  return ref;
}

void ref_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<RefObject*>(self)->core);
  PyObject_Free(self);
}

// `index` applied to `ref` (numpy's basic indexing: integers drop a dimension, slices of step 1
// and pl.ds keep it, `...` stands for the dimensions not named). Null with IndexError set.
RefObject* narrowed(RefObject* ref, PyObject* index) {
  std::vector<PyObject*> items;
  if (PyTuple_Check(index)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(index); ++i) items.push_back(PyTuple_GET_ITEM(index, i));
  } else {
    items.push_back(index);
  }
  const int rank = ref->slice.view.rank;
  int named = 0;
  bool ellipsis = false;
  for (PyObject* item : items) {
    if (item == Py_Ellipsis) {
      if (ellipsis) return PyErr_SetString(PyExc_IndexError, "an index can have only one ellipsis ('...')"), nullptr;
      ellipsis = true;
    } else {
      ++named;
    }
  }
  if (named > rank) {
    PyErr_Format(PyExc_IndexError, "too many indices for a ref of rank %d: %d", rank, named);
    return nullptr;
  }
  RefObject* result = make_ref(ref->core, ref->slice, ref->launch);
  if (result == nullptr) return nullptr;
  result->slice.view.rank = 0;
  int view = 0;
  const auto keep = [&](int dim) {
    result->view_dim[result->slice.view.rank] = static_cast<std::int8_t>(dim);
    result->slice.view.dims[result->slice.view.rank++] = result->slice.rect.size[dim];
  };
  for (PyObject* item : items) {
    if (item == Py_Ellipsis) {
      for (int skipped = rank - named; skipped > 0; --skipped) keep(ref->view_dim[view++]);
      continue;
    }
    const int dim = ref->view_dim[view];
    const std::int64_t extent = ref->slice.view.dims[view];
    ++view;
    if (PySlice_Check(item)) {
      auto* slice = reinterpret_cast<PySliceObject*>(item);
      std::int64_t start = 0;
      std::int64_t stop = extent;
      if (slice->step != Py_None) {
        const auto step = index_value(slice->step);
        if (!step) return Py_DECREF(result), nullptr;
        if (*step != 1) {
          Py_DECREF(result);
          PyErr_Format(kernel_misuse, "a strided index (step %lld): weft's refs take steps of 1",
                       static_cast<long long>(*step));
          return nullptr;
        }
      }
      if (slice->start != Py_None) {
        const auto value = index_value(slice->start);
        if (!value) return Py_DECREF(result), nullptr;
        start = *value < 0 ? *value + extent : *value;
      }
      if (slice->stop != Py_None) {
        const auto value = index_value(slice->stop);
        if (!value) return Py_DECREF(result), nullptr;
        stop = *value < 0 ? *value + extent : *value;
      }
      result->slice.rect.start[dim] += start;
      result->slice.rect.size[dim] = stop - start;
      keep(dim);
    } else {
      const auto value = index_value(item);
      if (!value) {
        Py_DECREF(result);
        PyErr_Format(PyExc_IndexError, "a ref is indexed with integers, slices, pl.ds and '...', not %s",
                     Py_TYPE(item)->tp_name);
        return nullptr;
      }
      result->slice.rect.start[dim] += *value;
      result->slice.rect.size[dim] = 1;
    }
  }
  for (; view < rank; ++view) keep(ref->view_dim[view]);
  return result;
}

// The core to act on for `ref`, checked: alive, and the one running (a ref handed to another
// core's kernel cannot act for it).
sim::Core* acting_core(RefObject* ref, const char* what) {
  sim::Core* core = live(ref->core, what);
  if (core == nullptr) return nullptr;
  return core;
}

FileNames& files_of(PyObject* core) { return *reinterpret_cast<CoreObject*>(core)->files; }

PyObject* load(RefObject* ref) {
  sim::Core* core = acting_core(ref, "a ref");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(ref->core).caller();
  PyObject* array = new_array(ref->slice.buffer->info().type, ref->slice.view);
  if (array == nullptr) return nullptr;
  PyObject* done = guarded([&]() -> PyObject* {
    core->check_slice(ref->slice, ref->launch, "loads", at);
    load_into(*core, ref->slice, reinterpret_cast<PyArrayObject*>(array), at);
    return array;
  });
  if (done == nullptr) {
    Py_DECREF(array);
    return nullptr;
  }
  return PyArray_Return(reinterpret_cast<PyArrayObject*>(array));
}

int store(RefObject* ref, PyObject* value) {
  sim::Core* core = acting_core(ref, "a ref");
  if (core == nullptr) return -1;
  const sim::Location at = files_of(ref->core).caller();
  PyObject* array = array_for_store(value, ref->slice.buffer->info().type, ref->slice.view);
  if (array == nullptr) return -1;
  PyObject* done = guarded([&]() -> PyObject* {
    core->check_slice(ref->slice, ref->launch, "stores", at);
    store_from(*core, ref->slice, reinterpret_cast<PyArrayObject*>(array), at);
    return Py_None;
  });
  Py_DECREF(array);
  return done == nullptr ? -1 : 0;
}

PyObject* ref_subscript(PyObject* self, PyObject* index) {
  auto* ref = reinterpret_cast<RefObject*>(self);
  RefObject* part = narrowed(ref, index);
  if (part == nullptr) return nullptr;
  PyObject* value = load(part);
  Py_DECREF(part);
  return value;
}

int ref_assign(PyObject* self, PyObject* index, PyObject* value) {
  if (value == nullptr) return PyErr_SetString(PyExc_TypeError, "a ref's elements cannot be deleted"), -1;
  RefObject* part = narrowed(reinterpret_cast<RefObject*>(self), index);
  if (part == nullptr) return -1;
  const int result = store(part, value);
  Py_DECREF(part);
  return result;
}

PyMappingMethods ref_mapping{nullptr, ref_subscript, ref_assign};

PyObject* ref_shape(PyObject* self, void*) {
  const auto& view = reinterpret_cast<RefObject*>(self)->slice.view;
  PyObject* shape = PyTuple_New(view.rank);
  for (int d = 0; d < view.rank; ++d) PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(view.dims[d]));
  return shape;
}
PyObject* ref_ndim(PyObject* self, void*) { return PyLong_FromLong(reinterpret_cast<RefObject*>(self)->slice.view.rank); }
PyObject* ref_dtype(PyObject* self, void*) {
  return dtype_object(reinterpret_cast<RefObject*>(self)->slice.buffer->info().type);
}
PyObject* ref_at(PyObject* self, void*) {
  auto* at = PyObject_New(AtObject, &at_type);
  Py_INCREF(self);
  at->ref = self;
  return reinterpret_cast<PyObject*>(at);
}
PyObject* ref_repr(PyObject* self) {
  const auto& slice = reinterpret_cast<RefObject*>(self)->slice;
  return PyUnicode_FromFormat("Ref(%s, %s)", model::describe(slice.buffer->info()).c_str(),
                              model::to_string(slice.view).c_str());
}
PyGetSetDef ref_getset[] = {{"shape", ref_shape, nullptr, nullptr, nullptr},
                            {"ndim", ref_ndim, nullptr, nullptr, nullptr},
                            {"dtype", ref_dtype, nullptr, nullptr, nullptr},
                            {"at", ref_at, nullptr, nullptr, nullptr},
                            {nullptr, nullptr, nullptr, nullptr, nullptr}};

void at_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<AtObject*>(self)->ref);
  PyObject_Free(self);
}
PyObject* at_subscript(PyObject* self, PyObject* index) {
  return reinterpret_cast<PyObject*>(narrowed(reinterpret_cast<RefObject*>(reinterpret_cast<AtObject*>(self)->ref), index));
}
PyMappingMethods at_mapping{nullptr, at_subscript, nullptr};

}  // namespace

namespace {

// ---- Semaphore ----

struct SemaphoreObject {
  PyObject_HEAD
  PyObject* core;
  sim::Semaphore semaphore;
};
PyTypeObject semaphore_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

void semaphore_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<SemaphoreObject*>(self)->core);
  PyObject_Free(self);
}
PyObject* semaphore_repr(PyObject* self) {
  const auto& semaphore = reinterpret_cast<SemaphoreObject*>(self)->semaphore;
  return PyUnicode_FromFormat("Semaphore(%s %d)", std::string(model::to_string(semaphore.kind)).c_str(), semaphore.id);
}

SemaphoreObject* as_semaphore(PyObject* object, const char* call) {
  if (!PyObject_TypeCheck(object, &semaphore_type)) {
    PyErr_Format(PyExc_TypeError, "%s takes a semaphore, not %s", call, Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return reinterpret_cast<SemaphoreObject*>(object);
}

// ---- Copy (a DMA) ----

struct CopyObject {
  PyObject_HEAD
  PyObject* core;
  sim::Dma dma;
};
PyTypeObject copy_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

void copy_dealloc(PyObject* self) {
  auto* copy = reinterpret_cast<CopyObject*>(self);
  Py_XDECREF(copy->core);
  copy->dma.~Dma();
  PyObject_Free(self);
}

template <void (sim::Dma::*Wait)(sim::Location)>
PyObject* copy_wait(PyObject* self, PyObject*) {
  auto* copy = reinterpret_cast<CopyObject*>(self);
  if (live(copy->core, "a copy descriptor") == nullptr) return nullptr;
  const sim::Location at = files_of(copy->core).caller();
  return guarded([&]() -> PyObject* {
    (copy->dma.*Wait)(at);
    Py_RETURN_NONE;
  });
}
PyMethodDef copy_methods[] = {{"wait", copy_wait<&sim::Dma::wait>, METH_NOARGS, "waits for the copy (both ends of a remote one)"},
                              {"wait_send", copy_wait<&sim::Dma::wait_send>, METH_NOARGS, "waits until the source has been read"},
                              {"wait_recv", copy_wait<&sim::Dma::wait_recv>, METH_NOARGS, "waits until the target holds it"},
                              {nullptr, nullptr, 0, nullptr}};

// ---- the raw functions ----

std::optional<int> optional_int(PyObject* object) {
  if (object == Py_None) return std::nullopt;
  const auto value = index_value(object);
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

// signal(semaphore, amount, device, core)
PyObject* signal(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 4) return PyErr_SetString(PyExc_TypeError, "signal(semaphore, amount, device, core)"), nullptr;
  SemaphoreObject* semaphore = as_semaphore(args[0], "semaphore_signal");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const auto amount = index_value(args[1]);
  if (!amount) return nullptr;
  sim::Where where{optional_int(args[2]), optional_int(args[3])};
  if (PyErr_Occurred()) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* {
    core->signal(semaphore->semaphore, *amount, where, at);
    Py_RETURN_NONE;
  });
}

// wait(semaphore, amount)
PyObject* wait(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 2) return PyErr_SetString(PyExc_TypeError, "wait(semaphore, amount)"), nullptr;
  SemaphoreObject* semaphore = as_semaphore(args[0], "semaphore_wait");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const auto amount = index_value(args[1]);
  if (!amount) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* {
    core->wait(semaphore->semaphore, *amount, at);
    Py_RETURN_NONE;
  });
}

// read(semaphore)
PyObject* read(PyObject*, PyObject* semaphore_object) {
  SemaphoreObject* semaphore = as_semaphore(semaphore_object, "semaphore_read");
  if (semaphore == nullptr) return nullptr;
  sim::Core* core = live(semaphore->core, "a semaphore");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(semaphore->core).caller();
  return guarded([&]() -> PyObject* { return PyLong_FromLongLong(core->read(semaphore->semaphore, at)); });
}

RefObject* as_ref(PyObject* object, const char* call) {
  if (!PyObject_TypeCheck(object, &ref_type)) {
    PyErr_Format(PyExc_TypeError, "%s takes refs, not %s", call, Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return reinterpret_cast<RefObject*>(object);
}

// copy(source, target, recv, send, device, core, add, started): a started DMA, or one described
PyObject* copy(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 8) return PyErr_SetString(PyExc_TypeError, "copy(source, target, recv, send, device, core, add, start)"), nullptr;
  RefObject* source = as_ref(args[0], "a copy");
  RefObject* target = source == nullptr ? nullptr : as_ref(args[1], "a copy");
  SemaphoreObject* recv = target == nullptr ? nullptr : as_semaphore(args[2], "a copy");
  if (recv == nullptr) return nullptr;
  std::optional<sim::Semaphore> send;
  if (args[3] != Py_None) {
    SemaphoreObject* send_object = as_semaphore(args[3], "a copy");
    if (send_object == nullptr) return nullptr;
    send = send_object->semaphore;
  }
  sim::Core* core = live(recv->core, "a semaphore");
  if (core == nullptr || live(source->core, "a ref") == nullptr || live(target->core, "a ref") == nullptr) return nullptr;
  sim::DmaOptions options{optional_int(args[4]), optional_int(args[5]), PyObject_IsTrue(args[6]) == 1};
  if (PyErr_Occurred()) return nullptr;
  const bool start = PyObject_IsTrue(args[7]) == 1;
  const sim::Location at = files_of(recv->core).caller();
  return guarded([&]() -> PyObject* {
    core->check_slice(source->slice, source->launch, start ? "starts a DMA from" : "describes a DMA from", at);
    core->check_slice(target->slice, target->launch, start ? "starts a DMA to" : "describes a DMA to", at);
    sim::Dma dma = start ? core->start(source->slice, target->slice, recv->semaphore, send, options, at)
                         : core->describe(source->slice, target->slice, recv->semaphore, send, options, at);
    auto* object = PyObject_New(CopyObject, &copy_type);
    Py_INCREF(recv->core);
    object->core = recv->core;
    new (&object->dma) sim::Dma(dma);
    return reinterpret_cast<PyObject*>(object);
  });
}

// sync_copy(source, target, add): a local copy started and waited in one call
PyObject* sync_copy(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 3) return PyErr_SetString(PyExc_TypeError, "sync_copy(source, target, add)"), nullptr;
  RefObject* source = as_ref(args[0], "sync_copy");
  RefObject* target = source == nullptr ? nullptr : as_ref(args[1], "sync_copy");
  if (target == nullptr) return nullptr;
  sim::Core* core = live(source->core, "a ref");
  if (core == nullptr || live(target->core, "a ref") == nullptr) return nullptr;
  const sim::CopyOptions options{PyObject_IsTrue(args[2]) == 1};
  const sim::Location at = files_of(source->core).caller();
  return guarded([&]() -> PyObject* {
    core->check_slice(source->slice, source->launch, "copies from", at);
    core->check_slice(target->slice, target->launch, "copies to", at);
    core->copy(source->slice, target->slice, options, at);
    Py_RETURN_NONE;
  });
}

PyObject* core_of(PyObject* object) {
  if (!PyObject_TypeCheck(object, &core_type)) {
    PyErr_Format(PyExc_TypeError, "a core handle, not %s", Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return object;
}

// barrier_semaphore(core)
PyObject* barrier_semaphore(PyObject*, PyObject* core_object) {
  if (core_of(core_object) == nullptr) return nullptr;
  sim::Core* core = live(core_object, "a core");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(core_object).caller();
  return guarded([&]() -> PyObject* { return new_semaphore(core_object, core->barrier_semaphore(at)); });
}

// identity(core) -> (device, core index, devices, cores per device, mesh)
PyObject* identity(PyObject*, PyObject* core_object) {
  if (core_of(core_object) == nullptr) return nullptr;
  sim::Core* core = live(core_object, "a core");
  if (core == nullptr) return nullptr;
  PyObject* mesh = PyTuple_New(static_cast<Py_ssize_t>(core->mesh().size()));
  for (std::size_t d = 0; d < core->mesh().size(); ++d) PyTuple_SET_ITEM(mesh, d, PyLong_FromLong(core->mesh()[d]));
  return Py_BuildValue("(iiiiN)", core->device_id(), core->core_id(), core->num_devices(), core->num_cores(), mesh);
}

PyMethodDef functions[] = {
    {"signal", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(signal)), METH_FASTCALL, "signal(semaphore, amount, device, core)"},
    {"wait", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(wait)), METH_FASTCALL, "wait(semaphore, amount)"},
    {"read", read, METH_O, "read(semaphore)"},
    {"copy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(copy)), METH_FASTCALL,
     "copy(source, target, recv, send, device, core, add, start)"},
    {"sync_copy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(sync_copy)), METH_FASTCALL,
     "sync_copy(source, target, add)"},
    {"barrier_semaphore", barrier_semaphore, METH_O, "barrier_semaphore(core)"},
    {"identity", identity, METH_O, "identity(core) -> (device, core, devices, cores, mesh)"},
    {nullptr, nullptr, 0, nullptr}};

bool ready(PyTypeObject& type, const char* name, Py_ssize_t size, destructor dealloc) {
  type.tp_name = name;
  type.tp_basicsize = size;
  type.tp_dealloc = dealloc;
  type.tp_flags = Py_TPFLAGS_DEFAULT;
  return PyType_Ready(&type) == 0;
}

void core_dealloc(PyObject* self) { PyObject_Free(self); }

}  // namespace

bool add_kernel_objects(PyObject* module) {
  ref_type.tp_as_mapping = &ref_mapping;
  ref_type.tp_getset = ref_getset;
  ref_type.tp_repr = ref_repr;
  at_type.tp_as_mapping = &at_mapping;
  semaphore_type.tp_repr = semaphore_repr;
  copy_type.tp_methods = copy_methods;
  if (!ready(core_type, "weft._weft.Core", sizeof(CoreObject), core_dealloc) ||
      !ready(ref_type, "weft._weft.Ref", sizeof(RefObject), ref_dealloc) ||
      !ready(at_type, "weft._weft.RefAt", sizeof(AtObject), at_dealloc) ||
      !ready(semaphore_type, "weft._weft.Semaphore", sizeof(SemaphoreObject), semaphore_dealloc) ||
      !ready(copy_type, "weft._weft.Copy", sizeof(CopyObject), copy_dealloc))
    return false;
  cpp_unwind = PyErr_NewExceptionWithDoc("weft._weft.CppUnwind",
                                         "weft's own unwinding of a core (never caught by a kernel)", PyExc_BaseException, nullptr);
  kernel_misuse = PyErr_NewExceptionWithDoc("weft._weft.KernelMisuse", "a misuse of weft's kernel API", PyExc_RuntimeError, nullptr);
  if (cpp_unwind == nullptr || kernel_misuse == nullptr) return false;
  PyModule_AddObjectRef(module, "CppUnwind", cpp_unwind);
  PyModule_AddObjectRef(module, "KernelMisuse", kernel_misuse);
  PyModule_AddObjectRef(module, "Ref", reinterpret_cast<PyObject*>(&ref_type));
  PyModule_AddObjectRef(module, "Semaphore", reinterpret_cast<PyObject*>(&semaphore_type));
  PyModule_AddObjectRef(module, "Copy", reinterpret_cast<PyObject*>(&copy_type));
  PyModule_AddObjectRef(module, "Core", reinterpret_cast<PyObject*>(&core_type));
  return PyModule_AddFunctions(module, functions) == 0;
}

PyObject* new_core(sim::Core& core, FileNames& files) {
  auto* object = PyObject_New(CoreObject, &core_type);
  object->core = &core;
  object->files = &files;
  return reinterpret_cast<PyObject*>(object);
}

void retire_core(PyObject* core) { reinterpret_cast<CoreObject*>(core)->core = nullptr; }

PyObject* new_ref(PyObject* core, const model::Slice& slice) {
  const auto* core_object = reinterpret_cast<CoreObject*>(core);
  return reinterpret_cast<PyObject*>(make_ref(core, slice, core_object->core->launch_number()));
}

PyObject* new_semaphore(PyObject* core, const sim::Semaphore& semaphore) {
  auto* object = PyObject_New(SemaphoreObject, &semaphore_type);
  Py_INCREF(core);
  object->core = core;
  object->semaphore = semaphore;
  return reinterpret_cast<PyObject*>(object);
}

void rethrow_python_error(const FileNames& files) {
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (type != nullptr && PyErr_GivenExceptionMatches(type, cpp_unwind)) {
    PyObject* capsule = nullptr;
    PyObject* args = PyObject_GetAttrString(value, "args");
    if (args != nullptr && PyTuple_Size(args) == 1) capsule = PyTuple_GET_ITEM(args, 0);
    std::exception_ptr error;
    if (capsule != nullptr) error = static_cast<Carried*>(PyCapsule_GetPointer(capsule, "weft.carried"))->error;
    Py_XDECREF(args);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    if (error) std::rethrow_exception(error);
    throw std::runtime_error("weft: a carried exception lost its payload");
  }
  std::string text = describe_exception(type, value, traceback, files.package_folder());
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  throw std::runtime_error(text);
}

sim::Location FileNames::caller() {
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  sim::Location found;
  bool first = true;
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const char* file = PyUnicode_AsUTF8(code->co_filename);
    Py_DECREF(code);
    const bool ours = file != nullptr && std::string_view(file).starts_with(package_);
    if (first || !ours) {
      found = {intern(file == nullptr ? "?" : file), static_cast<std::uint_least32_t>(PyFrame_GetLineNumber(frame))};
      first = false;
    }
    if (!ours) break;
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  Py_XDECREF(frame);
  return found;
}

}  // namespace weft::python
