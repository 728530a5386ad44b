#include <catch2/catch.hpp>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

sim::ExecutionResult run(const std::string& name, std::uint64_t seed, model::DmaExecution mode, int devices = 4,
                         int cores = 1) {
  static const auto registry = scenarios::builtin_scenarios();
  const auto* scenario = sim::find_scenario(registry, name);
  REQUIRE(scenario != nullptr);
  sim::Config config;
  config.machine.mesh = {devices};
  config.machine.cores_per_device = cores;
  config.machine.dma_execution = mode;
  sim::Simulation simulation(config, *scenario, scenario->params);
  return simulation.run_seed(seed);
}

}  // namespace

TEST_CASE("every built-in scenario is ok in every DMA mode over several seeds", "[sim]") {
  for (const char* name : {"right_permute", "ring_all_gather", "ring_all_reduce", "core_pipeline"}) {
    for (auto mode : {model::DmaExecution::eager, model::DmaExecution::on_wait, model::DmaExecution::async}) {
      for (std::uint64_t seed = 0; seed < 20; ++seed) {
        CAPTURE(name, static_cast<int>(mode), seed);
        const auto result = run(name, seed, mode);
        INFO(result.details);
        CHECK(result.verdict == model::Verdict::ok);
      }
    }
  }
}
