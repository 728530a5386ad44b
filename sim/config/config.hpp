#pragma once
// Everything one execution is configured by: the machine, race detection and the scheduler.
// Defaults here are the built-in defaults; the config loader layers files and --set on top.
// A new key that can change an execution also belongs in sim/request/config_digest.cpp.

#include <cstdint>
#include <string>

#include "model/machine_spec.hpp"
#include "model/races.hpp"
#include "scheduler/fiber/fiber_backend.hpp"

namespace weft::sim {

using SemaphoreClocks = model::SemaphoreClocks;

struct RaceDetectionConfig {
  bool enabled = true;
  SemaphoreClocks semaphore_clocks = SemaphoreClocks::precise;
  bool keep_going = false;  // collect every race instead of stopping at the first
  // Dense vector clocks or tree clocks (model/races.hpp): the same races and reports either way,
  // at another cost; dense ones are the faster on every workload measured (docs/performance.md).
  model::ClockKind clocks = model::ClockKind::vector;
};

struct SchedulerConfig {
  std::string strategy = "random";  // a name of scheduler/strategies/registry.hpp
  std::uint64_t seed = 0;
  int pct_depth = 3;
  std::int64_t pct_steps = 0;  // 0: the steps of one random execution at seed 0
  std::int64_t max_steps = 1'000'000;
  std::int64_t stack_bytes = 256 * 1024;  // per core fiber
  // Wall-clock seconds a core may run its own code between two visible operations before the
  // watchdog ends the execution (kernel_error); 0 disables it. It never influences a choice.
  double watchdog_seconds = 10;
  // A core that re-reads unchanged values with no effect in between is blocked until another
  // actor changes them (sim/engine/poll_window.hpp); off: it spins.
  bool spin_reduction = true;
  // The library that runs the cores' fibers. Either gives the same schedules, reports and traces
  // (scheduler/fiber/fiber_backend.hpp, docs/design-choices.md).
  scheduler::FiberBackend fiber_backend = scheduler::FiberBackend::context;
};

struct Config {
  model::MachineSpec machine{};
  RaceDetectionConfig race_detection{};
  SchedulerConfig scheduler{};
};

}  // namespace weft::sim
