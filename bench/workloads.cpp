#include "bench/workloads.hpp"

#include <stdexcept>

#include "sim/api/core.hpp"

namespace weft::bench {

sim::ScenarioDefinition operation_mix() {
  sim::ScenarioDefinition s;
  s.name = "operation_mix";
  s.summary = "stores, loads, signals and waits on every core (the benchmarks' step cost)";
  s.params = {{"iterations", 5000}};
  s.kernel = [](sim::Core& core) {
    auto scratch = core.vmem<float>({8});
    auto sem = core.semaphore();
    const sim::Tile<float> tile = sim::Tile<float>::Zero(1, 8);
    sim::Tile<float> loaded(1, 8);
    for (std::int64_t i = 0, n = core.param("iterations"); i < n; ++i) {
      core.store(scratch, tile);
      core.load_into(scratch, loaded);
      core.signal(sem);
      core.wait(sem);
    }
  };
  return s;
}

sim::Config operation_mix_config(bool races, scheduler::FiberBackend backend) {
  sim::Config config;
  config.scheduler.fiber_backend = backend;
  config.machine.mesh = {4};
  config.race_detection.enabled = races;
  return config;
}

sim::Config collective_config(int devices, int cores_per_device, bool races) {
  sim::Config config;
  config.machine.mesh = {devices};
  config.machine.cores_per_device = cores_per_device;
  config.machine.dma_execution = model::DmaExecution::async;
  config.race_detection.enabled = races;
  config.scheduler.max_steps = 100'000'000;  // 1,024 cores take some 1.3 million steps
  return config;
}

sim::Params scale_tiles() { return {{"rows", 4}, {"cols", 32}, {"direction", 1}}; }

sim::Config explore_config(int cores) {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = cores;
  config.machine.uninitialized = model::Uninitialized::zero;
  config.race_detection.enabled = false;
  return config;
}

sim::Config long_body_config() {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 2;
  config.machine.dma_execution = model::DmaExecution::async;
  config.race_detection.enabled = false;
  config.scheduler.max_steps = 100'000'000;
  return config;
}

sim::Params long_body_params(std::int64_t tiles) {
  return {{"tiles", tiles}, {"rows", 1}, {"cols", 128}, {"tile_offset", 0}};
}

sim::Params flash_attention_params(std::int64_t kv_blocks) {
  return {{"seq_q", 16}, {"seq_k", 8 * kv_blocks}, {"head", 8}, {"bq", 8}, {"bk", 8}, {"bug", 0}};
}

const sim::ScenarioDefinition& scenario(const sim::ScenarioRegistry& registry, const std::string& name) {
  const auto* found = sim::find_scenario(registry, name);
  if (found == nullptr) throw std::invalid_argument("no built-in scenario named " + name);
  return *found;
}

}  // namespace weft::bench
