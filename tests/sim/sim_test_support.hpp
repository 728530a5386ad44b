#pragma once
// Helpers of the sim tests that run scenarios made in the test: a machine of a few devices and
// cores (zero-initialised memory, so tests can count on what a buffer starts with), one seeded
// run, and an exploration of every interleaving.

#include <cstdint>

#include "sim/engine/explore.hpp"

namespace weft::sim::test {

inline Config machine_of(int devices, int cores, bool races) {
  Config config;
  config.machine.mesh = {devices};
  config.machine.cores_per_device = cores;
  config.machine.uninitialized = model::Uninitialized::zero;
  config.race_detection.enabled = races;
  return config;
}

inline ExecutionResult run(const ScenarioDefinition& scenario, const Config& config, std::uint64_t seed = 0) {
  Simulation simulation(config, scenario, scenario.params);
  return simulation.run_seed(seed);
}

inline ExploreReport explore(const ScenarioDefinition& scenario, const Config& config) {
  Simulation simulation(config, scenario, scenario.params);
  return sim::explore(simulation, {}, true);
}

}  // namespace weft::sim::test
