// The extension module weft._weft: the engine, its command line, and the objects a Python
// kernel holds (kernel_objects.hpp). Imported by the weft package (python/weft/__init__.py).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define PY_ARRAY_UNIQUE_SYMBOL weft_numpy_api
#include <numpy/arrayobject.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "app/main.hpp"
#include "python/native/carried_exceptions.hpp"
#include "python/native/kernel_objects.hpp"
#include "python/native/python_scenario.hpp"
#include "python/native/python_watchdog.hpp"
#include "sim/config/config_error.hpp"

namespace py = pybind11;

namespace {

bool import_numpy() {
  import_array1(false);
  return true;
}

// Interpret mode's executions per second of the bench's ring all-gather, on the machine model of
// the JAX source tree `jax_source` (python/weft/_interpret_mode_reference.py). Called with the GIL
// released; a tree it cannot use, or a failed execution, is a ConfigError with Python's message.
double reference_rate(const std::filesystem::path& jax_source, int executions) {
  py::gil_scoped_acquire held;
  try {
    const py::object reference = py::module_::import("weft._interpret_mode_reference");
    return reference.attr("executions_per_second")(jax_source.string(), executions).cast<double>();
  } catch (py::error_already_set& error) {
    const std::string message =
        error.matches(py::module_::import("weft._interpret_mode_reference").attr("ReferenceUnusable"))
            ? py::str(error.value()).cast<std::string>()
            : std::string(error.what());
    throw weft::sim::ConfigError(jax_source.string(), 0, 0, "", message);
  }
}

// The command line `weft ARGS...` (argv[0] is the program's name), as the weft executable runs
// it; scripts are read by this interpreter. The GIL is released while it runs: every entry into
// Python takes it back.
int main_entry(const std::vector<std::string>& argv, const std::string& package_folder) {
  std::vector<std::string> words = argv;
  std::vector<char*> pointers;
  for (auto& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  const weft::sim::ScriptLoader scripts = [package_folder](const std::filesystem::path& path) {
    return weft::python::load_script(path, package_folder);
  };
  weft::PythonBench python_bench{std::filesystem::path(package_folder) / "_bench_kernels.py", reference_rate};
  py::gil_scoped_release released;
  return weft::main(static_cast<int>(words.size()), pointers.data(), {}, scripts, python_bench);
}

}  // namespace

PYBIND11_MODULE(_weft, module) {
  module.doc() = "weft's engine: the command line, scenarios in Python, and the objects a kernel holds";
  if (!import_numpy()) throw py::error_already_set();
  if (!weft::python::add_kernel_objects(module.ptr())) throw py::error_already_set();
  if (!weft::python::PythonWatchdog::add_watchdog_type(module.ptr())) throw py::error_already_set();
  module.def("main", &main_entry, py::arg("argv"), py::arg("package_folder"),
             "runs weft's command line over argv (argv[0] the program's name); returns the exit status");
}
