#pragma once
// weft::main: the stock `weft` command line in a program of one's own. It has every verb of
// the stock executable (list, run, replay, sweep, merge, explore, bench), knows weft's built-in
// scenarios and the program's own, and exits as the stock one does (0 every execution as
// expected, 1 some not, 2 a usage or configuration error, 3 an internal error). A whole
// program, with a kernel linked in:
//
//   #include <weft/weft.hpp>
//
//   weft::sim::ScenarioDefinition my_ring();  // its setup, kernel and check
//
//   int main(int argc, char** argv) { return weft::main(argc, argv, {my_ring()}); }
//
// A name used twice (the program's own and a built-in one) is an error (exit 2). Kernel
// libraries (--kernels) are for the stock executable: it exports the whole kernel API to them,
// which a program linked against weft's static libraries does not (docs/kernel-api.md).

#include <filesystem>
#include <functional>

#include "sim/api/scenario.hpp"
#include "sim/plugin/catalog.hpp"

namespace weft {

// What `python3 -m weft bench` adds to the figures: the ring all-gather written in Python (the
// scenario `ring_all_gather` of `script`, read with the `scripts` handed to weft::main), and
// `reference_rate`, interpret mode's executions per second of it measured on the machine model
// of the JAX source tree `bench --reference` names (python/weft/_interpret_mode_reference.py).
// Each is measured in the same process as the C++ figures. It throws ConfigError when the tree
// cannot be used.
struct PythonBench {
  std::filesystem::path script;
  std::function<double(const std::filesystem::path& jax_source, int executions)> reference_rate;
};

// `scripts` reads the scenarios of a `.py` file a command names (the Python package's CLI hands
// its own in; the stock executable's hands the command to `python3 -m weft`). Without
// `python_bench`, as in the stock executable, the bench's Python figures say where to find them.
int main(int argc, char** argv, sim::ScenarioRegistry own_scenarios = {}, const sim::ScriptLoader& scripts = {},
         const PythonBench& python_bench = {});

}  // namespace weft
