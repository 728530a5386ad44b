// The weft executable: the command line over the built-in scenarios.
#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"

int main(int argc, char** argv) {
  const auto registry = weft::scenarios::builtin_scenarios();
  return weft::sim::run_cli(argc, argv, registry);
}
