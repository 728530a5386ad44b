// The weft executable: the command line over the built-in scenarios, with `weft bench`.
#include <iostream>

#include "bench/summary.hpp"
#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"

int main(int argc, char** argv) {
  const auto registry = weft::scenarios::builtin_scenarios();
  const auto bench = [&registry](const weft::sim::BenchRequest& request) {
    const auto figures = weft::bench::summary(registry, {request.quick, request.scale_devices});
    std::cout << figures.dump(1) << "\n";
    return 0;
  };
  return weft::sim::run_cli(argc, argv, registry, bench);
}
