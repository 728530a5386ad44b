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

#include "sim/api/scenario.hpp"
#include "sim/plugin/catalog.hpp"

namespace weft {

// `scripts` reads the scenarios of a `.py` file a command names (the Python package's CLI hands
// its own in; the stock executable's hands the command to `python3 -m weft`). `weft bench`
// measures the Python figures on the scenario `ring_all_gather` of `python_bench_script`, read
// with `scripts` (`python3 -m weft bench`: both measured in one process; without a script, as in
// the stock executable, the figures say where to find them).
int main(int argc, char** argv, sim::ScenarioRegistry own_scenarios = {}, const sim::ScriptLoader& scripts = {},
         const std::filesystem::path& python_bench_script = {});

}  // namespace weft
