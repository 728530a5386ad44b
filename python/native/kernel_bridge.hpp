#pragma once
// What a Python kernel holds and calls, as CPython objects written against the C API, not
// pybind11: a visible operation switches greenlets in the middle of the call, and pybind11 keeps
// per-thread bookkeeping of each call it dispatches that a switch in its middle corrupts.
//
//   Core        a core of the running execution (python's handle on sim::Core). It dies with the
//               execution: a ref, semaphore or copy that outlives it and is used again raises
//               weft.KernelMisuse naming what was kept (a kernel_error where it is used).
//   Ref         a rectangle of a buffer, as a Pallas ref: `ref[idx]` loads, `ref[idx] = v`
//               stores (each a visible operation), `ref.at[idx]` narrows, `.shape`, `.dtype`.
//   Semaphore   a semaphore handle; arrays of them are Python (weft/_kernel.py).
//   Copy        a started (or described) DMA: `.wait()`, `.wait_send()`, `.wait_recv()`.
//
// Values are numpy arrays of the buffer's element type, but bf16, held as float32 arrays of
// values a bfloat16 holds exactly: a load widens, a store rounds to nearest even.
//
// Every call names the kernel's own line: the innermost Python frame outside the weft package.
// C++ exceptions that end a core (weft's teardown, a finding) cross the Python frames between
// the call and the kernel's entry as the Python exception CppUnwind (a BaseException, so a
// kernel's `except Exception` lets it through), and become C++ exceptions again there
// (rethrow_python_error).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <set>
#include <string>

#include "sim/api/core.hpp"

namespace weft::python {

// File names of the kernels' lines, kept for as long as the scenarios that report them.
class FileNames {
 public:
  explicit FileNames(std::string package_folder) : package_(std::move(package_folder)) {}
  // The file and line of the innermost frame outside the weft package (else the innermost).
  sim::Location caller();
  const char* intern(const std::string& name) { return names_.insert(name).first->c_str(); }
  const std::string& package_folder() const { return package_; }

 private:
  std::string package_;
  std::set<std::string, std::less<>> names_;
};

// Adds the types, the exception classes and the raw functions to the module `_weft`.
bool add_kernel_objects(PyObject* module);

// A Core object for `core` (a new reference); `retire_core` marks it dead at the execution's end.
PyObject* new_core(sim::Core& core, FileNames& files);
void retire_core(PyObject* core);
// A Ref object of `slice` on `core` (a new reference).
PyObject* new_ref(PyObject* core, const model::Slice& slice);
// A Semaphore object (a new reference).
PyObject* new_semaphore(PyObject* core, const sim::Semaphore& semaphore);

// After a Python call failed: rethrows the C++ exception a CppUnwind carries, or throws
// std::runtime_error with the Python exception's type, message and the kernel's frames
// ("ValueError: ... (kernels.py:12 in body, kernels.py:30 in helper)").
[[noreturn]] void rethrow_python_error(const FileNames& files);

}  // namespace weft::python
