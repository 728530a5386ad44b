#include "sim/explain/explain.hpp"

#include "model/compat.hpp"

#include "sim/explain/leftovers.hpp"
#include "sim/explain/race_story.hpp"
#include "sim/explain/wait_for_graph.hpp"
#include "sim/trace/causality.hpp"

namespace weft::sim {

bool accumulating_clocks(const Config& config) {
  return model::quirks_of(config.machine.compat).accumulating_clocks ||
         config.race_detection.semaphore_clocks == model::SemaphoreClocks::accumulate;
}

Explanation explain_recorded(const TraceRecorder& recorder, const ExecutionResult& result, bool accumulate) {
  switch (result.verdict) {
    case model::Verdict::data_race: {
      const Causality causality(recorder, accumulate);
      Explanation races;
      for (std::size_t i = 0; i + 1 < result.sites.size(); i += 2)
        races.append(explain_race(recorder, causality, result.sites[i], result.sites[i + 1]));
      return races;
    }
    case model::Verdict::deadlock:
      return explain_deadlock(recorder, result.sites);
    case model::Verdict::semaphore_leak:
      return explain_leak(recorder);
    case model::Verdict::dma_in_flight:
      return explain_in_flight(recorder);
    default:
      return {};
  }
}

Explanation explain(Simulation& simulation, const ExecutionResult& result) {
  if (result.verdict != model::Verdict::data_race && result.verdict != model::Verdict::deadlock &&
      result.verdict != model::Verdict::semaphore_leak && result.verdict != model::Verdict::dma_in_flight)
    return {};
  const auto& machine = simulation.config().machine;
  TraceRecorder recorder(machine.devices(), machine.cores_per_device);
  const ExecutionResult replayed = simulation.run_schedule(result.schedule, &recorder);
  if (replayed.verdict != result.verdict || replayed.steps != result.steps || replayed.details != result.details) {
    Explanation differs;
    differs.title = "no explanation";
    differs.why.push_back("the replay of this schedule ended otherwise (" +
                          std::string(model::to_string(replayed.verdict)) + " after " + std::to_string(replayed.steps) +
                          " steps): the kernel is not deterministic");
    return differs;
  }
  return explain_recorded(recorder, result, accumulating_clocks(simulation.config()));
}

Explanation FailureExplainer::operator()(const ExecutionResult& result) {
  if (!simulation_) simulation_ = std::make_unique<Simulation>(config_, scenario_, params_);
  return explain(*simulation_, result);
}

}  // namespace weft::sim
