#include "python/native/carried_exceptions.hpp"

#include <exception>
#include <stdexcept>
#include <string>

#include "python/native/python_values.hpp"
#include "sim/api/scenario.hpp"

namespace weft::python {
namespace {

// The module's exception types, made once when it is imported and never changed after.
PyObject* cpp_unwind = nullptr;    // weft._weft.CppUnwind (BaseException)
PyObject* misuse_error = nullptr;  // weft._weft.KernelMisuse (RuntimeError)

struct Carried {
  std::exception_ptr error;
};

}  // namespace

bool add_exception_types(PyObject* module) {
  cpp_unwind =
      PyErr_NewExceptionWithDoc("weft._weft.CppUnwind", "weft's own unwinding of a core (never caught by a kernel)",
                                PyExc_BaseException, nullptr);
  misuse_error = PyErr_NewExceptionWithDoc("weft._weft.KernelMisuse", "a misuse of weft's kernel API",
                                           PyExc_RuntimeError, nullptr);
  if (cpp_unwind == nullptr || misuse_error == nullptr) return false;
  return PyModule_AddObjectRef(module, "CppUnwind", cpp_unwind) == 0 &&
         PyModule_AddObjectRef(module, "KernelMisuse", misuse_error) == 0;
}

PyObject* kernel_misuse() { return misuse_error; }

bool is_missing_name(PyObject* type) {
  PyObject* module = PyImport_ImportModule("weft._missing_name");
  PyObject* missing = module == nullptr ? nullptr : PyObject_GetAttrString(module, "MissingName");
  const bool matches = missing != nullptr && PyErr_GivenExceptionMatches(type, missing) != 0;
  Py_XDECREF(missing);
  Py_XDECREF(module);
  PyErr_Clear();  // a failed import or lookup is no match
  return matches;
}

void carry_current_exception() {
  auto* carried = new Carried{std::current_exception()};
  PyObject* capsule = PyCapsule_New(carried, "weft.carried", [](PyObject* self) {
    delete static_cast<Carried*>(PyCapsule_GetPointer(self, "weft.carried"));
  });
  PyErr_SetObject(cpp_unwind, capsule);
  Py_DECREF(capsule);
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
  const bool missing_name = type != nullptr && is_missing_name(type);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  if (missing_name) throw sim::NotModelled(text);  // weft's gap, not the kernel's error
  throw std::runtime_error(text);
}

}  // namespace weft::python
