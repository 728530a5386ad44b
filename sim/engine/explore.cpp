#include "sim/engine/explore.hpp"

#include <algorithm>
#include <chrono>
#include <new>

#include "sim/engine/explore_parts.hpp"

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
                      const Simulation::Inspector* inspect, const ExploreWatch& watch) {
  explore_parts::check_explorable(simulation.config());
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  const std::size_t budget = explore_parts::memory_budget(watch, simulation.config());
  scheduler::Explorer explorer(options);
  explore_parts::Stoppable strategy(explorer.strategy(), watch.stop);
  ExploreReport report;
  std::size_t depth = 0;  // steps of the latest complete run
  std::size_t kept = 0;   // what the explorer keeps, as last measured
  std::uint64_t next_measure = 0;
  for (;;) {
    ExecutionResult result;
    bool complete = true;
    try {
      if (!explorer.next()) break;
      try {
        result = simulation.run(strategy, nullptr, inspect);
      } catch (const scheduler::ExecutionAbandoned&) {
        complete = false;
      }
      explorer.finish(complete);
    } catch (const explore_parts::ExploreStopped&) {
      report.interrupted = true;
      break;
    } catch (const std::bad_alloc&) {  // the host ran out before the budget did: stop as at the budget
      report.out_of_memory = true;
      report.allocation_failed = true;
      break;
    }
    if (complete) depth = result.steps;
    const std::uint64_t runs = explorer.complete_runs() + explorer.abandoned_runs();
    if (runs >= next_measure) {
      kept = explorer.memory_bytes();
      next_measure = runs + 1 + kept / explore_parts::measure_every_bytes;
      report.peak_memory_bytes = std::max(report.peak_memory_bytes, kept);
    }
    if (watch.progress)
      watch.progress({runs, explorer.complete_runs(), explorer.estimated_classes(), depth, explorer.frontier_size(), kept});
    if (complete) {
      explore_parts::tally(report, result, false);
      if (result.verdict != model::Verdict::ok && !keep_going) {
        report.stopped_early = true;
        break;
      }
    }
    if (kept > budget && !explorer.exhausted()) {
      report.out_of_memory = true;
      break;
    }
  }
  report.complete = explorer.complete_runs();
  report.abandoned = explorer.abandoned_runs();
  report.exhausted = explorer.exhausted() && !report.stopped_early;
  report.bound_hit = explorer.bound_hit();
  report.frontier = explorer.frontier_size();
  report.steps = strategy.steps();
  report.estimated_classes = explorer.estimated_classes();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace weft::sim
