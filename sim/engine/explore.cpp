#include "sim/engine/explore.hpp"

#include <algorithm>
#include <chrono>

#include "sim/config/config_error.hpp"

namespace weft::sim {

bool ExploreReport::found(model::Verdict verdict) const {
  return std::any_of(verdicts.begin(), verdicts.end(), [&](const FoundVerdict& f) { return f.verdict == verdict; });
}

bool ExploreReport::as_expected(model::Verdict expect) const {
  for (const FoundVerdict& found : verdicts)
    if (found.verdict != model::Verdict::ok && found.verdict != expect) return false;
  return expect == model::Verdict::ok || found(expect);
}

ExploreReport explore(Simulation& simulation, const scheduler::ExploreOptions& options, bool keep_going,
                      const Simulation::Inspector* inspect) {
  if (simulation.config().machine.dma_execution == model::DmaExecution::on_wait)
    throw ConfigError("dma.execution", 0, 0, "dma.execution",
                      "explore needs eager or async DMAs (async runs every interleaving on_wait can, and more); "
                      "add --set dma.execution=async");
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  scheduler::Explorer explorer(options);
  ExploreReport report;
  while (explorer.next()) {
    ExecutionResult result;
    try {
      result = simulation.run(explorer.strategy(), nullptr, inspect);
    } catch (const scheduler::ExecutionAbandoned&) {
      explorer.finish(false);
      continue;
    }
    explorer.finish(true);
    auto found = std::find_if(report.verdicts.begin(), report.verdicts.end(),
                              [&](const FoundVerdict& f) { return f.verdict == result.verdict; });
    if (found == report.verdicts.end()) found = report.verdicts.insert(report.verdicts.end(), {result.verdict, 0, result});
    ++found->runs;
    const bool failure = result.verdict != model::Verdict::ok;
    if (failure && !keep_going) {
      report.stopped_early = true;
      break;
    }
  }
  report.complete = explorer.complete_runs();
  report.abandoned = explorer.abandoned_runs();
  report.exhausted = explorer.exhausted() && !report.stopped_early;
  report.bound_hit = explorer.bound_hit();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace weft::sim
