#include "python/native/file_names.hpp"

#include <frameobject.h>

#include <cstring>
#include <string_view>

namespace weft::python {

const FileNames::Known& FileNames::known(PyObject* file_name) {
  const char* text = PyUnicode_AsUTF8(file_name);
  if (text == nullptr) {
    PyErr_Clear();
    text = "?";
  }
  for (const Known& entry : known_)
    if (entry.object == file_name && std::strcmp(entry.name, text) == 0) return entry;
  if (known_.size() == 64) known_.erase(known_.begin());  // a bound: the oldest goes
  known_.push_back({file_name, intern(text), std::string_view(text).starts_with(package_)});
  return known_.back();
}

sim::Location FileNames::caller() {
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  sim::Location found;
  bool first = true;
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const Known& file = known(code->co_filename);
    Py_DECREF(code);
    const bool ours = file.ours;
    if (first || !ours) {
      found = {file.name, static_cast<std::uint_least32_t>(PyFrame_GetLineNumber(frame))};
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
