#pragma once
// C++ exceptions across the Python frames of a kernel. weft ends a core by throwing (its
// teardown, a finding, a misuse): from a visible operation, the exception must cross the Python
// frames between that call and the kernel's entry. A raw entry point runs its C++ in `guarded`,
// which turns any exception into the Python exception CppUnwind carrying it (a BaseException,
// so a kernel's `except Exception` lets it through); where C++ called Python, a failed call is
// handed to `rethrow_python_error`, which rethrows the carried C++ exception, or turns a Python
// exception of the kernel's own into std::runtime_error naming its type, message and frames.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "python/native/file_names.hpp"

namespace weft::python {

// Creates CppUnwind and KernelMisuse (a misuse of the API, a RuntimeError) in `module`.
bool add_exception_types(PyObject* module);
// KernelMisuse, for errors a kernel's misuse raises.
PyObject* kernel_misuse();
// Whether the exception type `type` is weft._missing_name.MissingName (weft's gap: a name of jax
// or Pallas it lacks), or derives from it.
bool is_missing_name(PyObject* type);
// Sets CppUnwind carrying the exception being handled (call from a catch block).
void carry_current_exception();

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

// After a Python call failed: rethrows the C++ exception a CppUnwind carries, or throws
// std::runtime_error with the Python exception's type, message and the kernel's frames
// ("ValueError: ... (at kernels.py:12 in body; called from kernels.py:30 in helper)"), the
// weft package's frames left out; sim::NotModelled with the same text for a MissingName.
[[noreturn]] void rethrow_python_error(const FileNames& files);

}  // namespace weft::python
