#pragma once
// Explaining a failure, not just reporting it: the entry point the commands call when they
// report a failure (run, replay, sweep, explore). Nothing here runs while executions run: a
// failure is explained from a recording of it, either the one a run with trace files made
// anyway, or a replay of its schedule with a TraceRecorder (one more execution per failure
// reported, the same one: executions are deterministic).
//
//   data_race       why the two accesses are unordered (race_story.hpp), per race
//   deadlock        the wait-for graph of the blocked cores (wait_for_graph.hpp)
//   semaphore_leak  where the units left over were signalled (leftovers.hpp)
//   dma_in_flight   where the DMAs that never landed started (leftovers.hpp)
// Other verdicts have no explanation beyond their report.

#include <memory>

#include "sim/config/config.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/explain/explanation.hpp"

namespace weft::sim {

// Whether race detection joins whole cells (the jax profile, or semaphore_clocks = accumulate).
bool accumulating_clocks(const Config& config);

// The explanation of `result`, from the recording of that very execution.
Explanation explain_recorded(const TraceRecorder& recorder, const ExecutionResult& result, bool accumulate);

// The explanation of `result`, an execution of `simulation`, from a replay of its schedule.
Explanation explain(Simulation& simulation, const ExecutionResult& result);

// Explains the failures of one scenario's executions on a simulation of its own, made when the
// first failure needs it (a sweep's workers keep theirs).
class FailureExplainer {
 public:
  FailureExplainer(const Config& config, const ScenarioDefinition& scenario, const Params& params)
      : config_(config), scenario_(scenario), params_(params) {}
  Explanation operator()(const ExecutionResult& result);

 private:
  const Config& config_;
  const ScenarioDefinition& scenario_;
  const Params& params_;
  std::unique_ptr<Simulation> simulation_;
};

}  // namespace weft::sim
