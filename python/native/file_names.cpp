#include "python/native/file_names.hpp"

#include <frameobject.h>

#include <string_view>

namespace weft::python {

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
