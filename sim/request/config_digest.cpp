#include "sim/request/config_digest.hpp"

#include <cstdint>
#include <cstdio>

namespace weft::sim {
namespace {

std::string canonical_text(const Request& request) {
  const Config& config = request.config;
  const auto& machine = config.machine;
  std::string text = "scenario=" + request.scenario->name + "\ntopology.mesh=";
  for (int extent : machine.mesh) text += std::to_string(extent) + ",";
  const auto line = [&text](const char* key, auto value) {
    text += "\n" + std::string(key) + "=" + std::to_string(value);
  };
  line("topology.cores_per_device", machine.cores_per_device);
  line("memory.uninitialized", static_cast<int>(machine.uninitialized));
  line("memory.out_of_bounds_reads", static_cast<int>(machine.out_of_bounds_reads));
  line("memory.hbm_bytes", machine.hbm_bytes);
  line("memory.vmem_bytes", machine.vmem_bytes);
  line("memory.smem_bytes", machine.smem_bytes);
  line("memory.vmem_shared_bytes", machine.vmem_shared_bytes);
  line("dma.execution", static_cast<int>(machine.dma_execution));
  line("dma.chunk_bytes", machine.dma_chunk_bytes);
  line("compat.profile", static_cast<int>(machine.compat));
  line("program.launches", machine.launches);
  line("race_detection.enabled", static_cast<int>(config.race_detection.enabled));
  line("race_detection.semaphore_clocks", static_cast<int>(config.race_detection.semaphore_clocks));
  line("race_detection.keep_going", static_cast<int>(config.race_detection.keep_going));
  text += "\nscheduler.strategy=" + config.scheduler.strategy;
  line("scheduler.pct_depth", config.scheduler.pct_depth);
  line("scheduler.pct_steps", config.scheduler.pct_steps);
  line("scheduler.max_steps", config.scheduler.max_steps);
  line("scheduler.stack_bytes", config.scheduler.stack_bytes);
  line("scheduler.fiber_backend", static_cast<int>(config.scheduler.fiber_backend));
  line("scheduler.spin_reduction", static_cast<int>(config.scheduler.spin_reduction));
  for (const auto& [name, value] : request.params) text += "\nparams." + name + "=" + to_toml(value);
  return text;
}

}  // namespace

std::string config_digest(const Request& request) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const unsigned char byte : canonical_text(request)) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace weft::sim
