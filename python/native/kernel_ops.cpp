// The raw functions a Python kernel calls (weft/jax/experimental/pallas): the semaphore verbs,
// DMAs, sync copies, the barrier semaphore, the core's identity and the inner pipeline. Each is
// a CPython entry point (kernel_objects.hpp says why), runs its C++ in `guarded`
// (carried_exceptions.hpp) and names the kernel's line (file_names.hpp).

#include "python/native/kernel_objects.hpp"

#include <optional>

#include "python/native/carried_exceptions.hpp"
#include "python/native/python_values.hpp"

namespace weft::python {
namespace {

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
    return new_copy(recv->core, dma);
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

// barrier_semaphore(core)
PyObject* barrier_semaphore(PyObject*, PyObject* core_object) {
  if (as_core(core_object) == nullptr) return nullptr;
  sim::Core* core = live(core_object, "a core");
  if (core == nullptr) return nullptr;
  const sim::Location at = files_of(core_object).caller();
  return guarded([&]() -> PyObject* { return new_semaphore(core_object, core->barrier_semaphore(at)); });
}

// identity(core) -> (device, core index, devices, cores per device, mesh)
PyObject* identity(PyObject*, PyObject* core_object) {
  if (as_core(core_object) == nullptr) return nullptr;
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

}  // namespace

bool add_kernel_ops(PyObject* module) { return PyModule_AddFunctions(module, functions) == 0; }

}  // namespace weft::python
