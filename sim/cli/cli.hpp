#pragma once
// weft's command line: `list`, `run`, `replay`, `sweep`, `merge`, `explore`
// and `bench`, over the scenarios of `registry` (shown as built in) and those of the kernel
// libraries a command names (--kernels, a scenario file's `kernels` key), loaded for that
// command alone. A program of one's own calls weft::main (app/main.hpp), which calls this.
//
// Exit status: 0 every execution gave the expected verdict; 1 some did not; 2 usage or
// configuration error, or stdout could not be written; 3 internal error; 4 a sweep or merge that
// is incomplete and found no failure, or an explore stopped before its end (exit_status.hpp).

#include <filesystem>
#include <functional>
#include <optional>

#include "sim/api/scenario.hpp"
#include "sim/engine/rank_transport.hpp"
#include "sim/plugin/catalog.hpp"

namespace weft::sim {

// `weft bench` lives in bench/ (it measures the whole engine); the executable hands it in, and
// without it there is no bench command.
struct BenchRequest {
  bool quick = false;
  std::optional<int> scale_devices;  // given or not: --quick keeps one that is given
  // A JAX source tree whose interpret mode is measured beside weft (python3 -m weft bench).
  std::optional<std::filesystem::path> reference;
};
using BenchCommand = std::function<int(const BenchRequest&)>;

// Scripts (`.py` files) named by a command are read by `scripts` (sim/plugin/catalog.hpp).
// With `ranks` (weft-mpi's), `explore` is shared by the processes it connects
// (explore_command.hpp).
int run_cli(int argc, char** argv, const ScenarioRegistry& registry, const BenchCommand& bench = {},
            const ScriptLoader& scripts = {}, RankTransport* ranks = nullptr);

}  // namespace weft::sim
