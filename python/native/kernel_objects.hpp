#pragma once
// What a Python kernel holds, as CPython objects written against the C API, not pybind11: a
// visible operation switches fibers in the middle of the call, and pybind11 keeps per-thread
// bookkeeping of each call it dispatches that a switch in its middle corrupts.
//
//   Core        a core of the running execution (Python's handle on sim::Core). It dies with
//               the execution: a ref, semaphore or copy that outlives it and is used again raises
//               KernelMisuse naming what was kept (a kernel_error where it is used).
//   Ref         a rectangle of a buffer, as a Pallas ref: `ref[idx]` loads, `ref[idx] = v`
//               stores (each a visible operation), `ref.at[idx]` narrows, `.shape`, `.dtype`.
//   Semaphore   a semaphore handle; arrays of them are Python (weft/_kernel.py).
//   Copy        a started (or described) DMA: `.wait()`, `.wait_send()`, `.wait_recv()`.
//
// Values are numpy arrays (python_values.hpp). Every call names the kernel's own line
// (file_names.hpp); C++ exceptions cross the Python frames as carried_exceptions.hpp says.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <array>
#include <cstdint>

#include "python/native/file_names.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "sim/api/core.hpp"

namespace weft::python {

struct CoreObject {
  PyObject_HEAD sim::Core* core;  // null once its execution ended
  FileNames* files;
  const scheduler::Fiber* fiber;  // the core's fiber: only it may act for the core
};

struct RefObject {
  PyObject_HEAD PyObject* core;
  model::Slice slice;
  std::array<std::int8_t, model::max_rank> view_dim;  // the buffer dimension of each dimension of the view
  std::uint64_t launch;
};

struct SemaphoreObject {
  PyObject_HEAD PyObject* core;
  sim::Semaphore semaphore;
};

// Adds the types, the exception types and the raw functions (kernel_ops.cpp) to `_weft`.
bool add_kernel_objects(PyObject* module);
bool add_kernel_ops(PyObject* module);

// A Core object for `core` (a new reference); `retire_core` marks it dead at the execution's end.
PyObject* new_core(sim::Core& core, FileNames& files);
void retire_core(PyObject* core);
// A Ref object of `slice` on `core` (a new reference).
PyObject* new_ref(PyObject* core, const model::Slice& slice);
// A Semaphore object (a new reference).
PyObject* new_semaphore(PyObject* core, const sim::Semaphore& semaphore);
// A Copy object of a started or described DMA (a new reference).
PyObject* new_copy(PyObject* core, const sim::Dma& dma);

// The live core of a Core object, running now, or null with KernelMisuse naming `what`: kept
// past its execution, or handed to another core's kernel.
sim::Core* live(PyObject* core, const char* what);
FileNames& files_of(PyObject* core);
// `object` as a Ref / Semaphore / Core, or null with TypeError naming `call`.
RefObject* as_ref(PyObject* object, const char* call);
SemaphoreObject* as_semaphore(PyObject* object, const char* call);
PyObject* as_core(PyObject* object);

}  // namespace weft::python
