#include "python/native/kernel_objects.hpp"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL weft_numpy_api
#include <numpy/arrayobject.h>

#include <vector>

#include "python/native/carried_exceptions.hpp"
#include "python/native/python_values.hpp"

namespace weft::python {
namespace {

// ---- Core ----

PyTypeObject core_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace

sim::Core* live(PyObject* object, const char* what) {
  auto* core = reinterpret_cast<CoreObject*>(object);
  if (core->core == nullptr) {
    PyErr_Format(kernel_misuse(), "%s kept past the kernel that made it (its execution has ended)", what);
    return nullptr;
  }
  if (scheduler::Fiber::current() != core->fiber) {
    PyErr_Format(kernel_misuse(), "%s of %s used by another core's kernel", what,
                 model::to_string(core->core->id()).c_str());
    return nullptr;
  }
  return core->core;
}

FileNames& files_of(PyObject* core) { return *reinterpret_cast<CoreObject*>(core)->files; }

namespace {

// ---- Ref ----

PyTypeObject ref_type = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject at_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

struct AtObject {
  PyObject_HEAD PyObject* ref;
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
          PyErr_Format(kernel_misuse(), "a strided index (step %lld): weft's refs take steps of 1",
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

PyObject* load(RefObject* ref) {
  sim::Core* core = live(ref->core, "a ref");
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
  sim::Core* core = live(ref->core, "a ref");
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
PyObject* ref_ndim(PyObject* self, void*) {
  return PyLong_FromLong(reinterpret_cast<RefObject*>(self)->slice.view.rank);
}
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
  return reinterpret_cast<PyObject*>(
      narrowed(reinterpret_cast<RefObject*>(reinterpret_cast<AtObject*>(self)->ref), index));
}
PyMappingMethods at_mapping{nullptr, at_subscript, nullptr};

// ---- Semaphore ----

PyTypeObject semaphore_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

void semaphore_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<SemaphoreObject*>(self)->core);
  PyObject_Free(self);
}
PyObject* semaphore_repr(PyObject* self) {
  const auto& semaphore = reinterpret_cast<SemaphoreObject*>(self)->semaphore;
  return PyUnicode_FromFormat("Semaphore(%s %d)", std::string(model::to_string(semaphore.kind)).c_str(), semaphore.id);
}

}  // namespace

SemaphoreObject* as_semaphore(PyObject* object, const char* call) {
  if (!PyObject_TypeCheck(object, &semaphore_type)) {
    PyErr_Format(PyExc_TypeError, "%s takes a semaphore, not %s", call, Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return reinterpret_cast<SemaphoreObject*>(object);
}

namespace {

// ---- Copy (a DMA) ----

struct CopyObject {
  PyObject_HEAD PyObject* core;
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
PyMethodDef copy_methods[] = {
    {"wait", copy_wait<&sim::Dma::wait>, METH_NOARGS, "waits for the copy (both ends of a remote one)"},
    {"wait_send", copy_wait<&sim::Dma::wait_send>, METH_NOARGS, "waits until the source has been read"},
    {"wait_recv", copy_wait<&sim::Dma::wait_recv>, METH_NOARGS, "waits until the target holds it"},
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
  if (!add_exception_types(module)) return false;
  PyModule_AddObjectRef(module, "Ref", reinterpret_cast<PyObject*>(&ref_type));
  PyModule_AddObjectRef(module, "Semaphore", reinterpret_cast<PyObject*>(&semaphore_type));
  PyModule_AddObjectRef(module, "Copy", reinterpret_cast<PyObject*>(&copy_type));
  PyModule_AddObjectRef(module, "Core", reinterpret_cast<PyObject*>(&core_type));
  return add_kernel_ops(module);
}

PyObject* new_core(sim::Core& core, FileNames& files) {
  auto* object = PyObject_New(CoreObject, &core_type);
  object->core = &core;
  object->files = &files;
  object->fiber = scheduler::Fiber::current();
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

RefObject* as_ref(PyObject* object, const char* call) {
  if (!PyObject_TypeCheck(object, &ref_type)) {
    PyErr_Format(PyExc_TypeError, "%s takes refs, not %s", call, Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return reinterpret_cast<RefObject*>(object);
}

PyObject* as_core(PyObject* object) {
  if (!PyObject_TypeCheck(object, &core_type)) {
    PyErr_Format(PyExc_TypeError, "a core handle, not %s", Py_TYPE(object)->tp_name);
    return nullptr;
  }
  return object;
}

PyObject* new_copy(PyObject* core, const sim::Dma& dma) {
  auto* object = PyObject_New(CopyObject, &copy_type);
  Py_INCREF(core);
  object->core = core;
  new (&object->dma) sim::Dma(dma);
  return reinterpret_cast<PyObject*>(object);
}

}  // namespace weft::python
