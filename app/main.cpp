#include "app/main.hpp"

#include <iostream>
#include <iterator>

#include "bench/summary.hpp"
#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"
#include "sim/plugin/exit_guard.hpp"

namespace weft {

int main(int argc, char** argv, sim::ScenarioRegistry own_scenarios) {
  // Until the command returns, an exit() from code that is not weft's (a kernel, a kernel
  // library) ends the process with a status of weft's (3, or 2), never with its own.
  const sim::ExitGuard guard;
  sim::ScenarioRegistry registry = scenarios::builtin_scenarios();
  registry.insert(registry.end(), std::make_move_iterator(own_scenarios.begin()),
                  std::make_move_iterator(own_scenarios.end()));
  const auto bench = [&registry](const sim::BenchRequest& request) {
    const auto figures = bench::summary(registry, {request.quick, request.scale_devices});
    std::cout << figures.dump(1) << "\n";
    return 0;
  };
  return sim::run_cli(argc, argv, registry, bench);
}

}  // namespace weft
