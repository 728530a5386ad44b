#pragma once
// Where a Python kernel is in its own source: the file and line of the innermost frame outside
// the weft package, as reports name it. The names are kept (as C strings the reports hold) for as
// long as the scenarios of the script live.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "sim/api/location.hpp"

namespace weft::python {

class FileNames {
 public:
  explicit FileNames(std::string package_folder) : package_(std::move(package_folder)) {}
  // The file and line of the innermost frame outside the weft package (else the innermost).
  sim::Location caller();
  const char* intern(const std::string& name) { return names_.insert(name).first->c_str(); }
  const std::string& package_folder() const { return package_; }

 private:
  // A code object's file name as reports keep it, and whether it is the weft package's. Looked up
  // by the name object's address first (no string made at each visible operation), confirmed
  // by its text, since a freed name's address may come back holding another.
  struct Known {
    const void* object;
    const char* name;
    bool ours;
  };
  const Known& known(PyObject* file_name);

  std::string package_;
  std::set<std::string, std::less<>> names_;
  std::vector<Known> known_;  // a kernel's few files, newest last
};

}  // namespace weft::python
