#include "sim/engine/explore.hpp"

#include <algorithm>
#include <chrono>
#include <new>
#include <string>

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

namespace {

// A resumed exploration's verdicts, each first run replayed from its schedule.
std::vector<FoundVerdict> replay_verdicts(Simulation& simulation, const std::vector<SavedVerdict>& saved) {
  std::vector<FoundVerdict> verdicts;
  for (const SavedVerdict& verdict : saved) {
    ExecutionResult first = simulation.run_schedule(verdict.schedule);
    if (first.verdict != verdict.verdict)
      throw ResumeError("checkpoint: the first run of " + std::string(model::to_string(verdict.verdict)) +
                        " replays as " + std::string(model::to_string(first.verdict)) +
                        " (was the scenario's code changed?)");
    verdicts.push_back({verdict.verdict, verdict.runs, std::move(first)});
  }
  return verdicts;
}

std::vector<SavedVerdict> saved_verdicts(const std::vector<FoundVerdict>& found) {
  std::vector<SavedVerdict> verdicts;
  for (const FoundVerdict& each : found) verdicts.push_back({each.verdict, each.runs, each.first.schedule});
  return verdicts;
}

}  // namespace

ExploreReport explore(Simulation& simulation, const scheduler::ExploreOptions& options, bool keep_going,
                      const Simulation::Inspector* inspect, const ExploreWatch& watch) {
  explore_parts::check_explorable(simulation.config());
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const std::size_t budget = explore_parts::memory_budget(watch, simulation.config());
  const ExploreSaved* resume = watch.resume;
  scheduler::Explorer explorer =
      resume != nullptr ? scheduler::Explorer(options, resume->explorer) : scheduler::Explorer(options);
  explore_parts::Stoppable strategy(explorer.strategy(), watch.stop);
  ExploreReport report;
  std::uint64_t steps_before = 0;  // of the runs before a resume
  double seconds_before = 0;
  if (resume != nullptr) {
    report.verdicts = replay_verdicts(simulation, resume->verdicts);
    report.peak_memory_bytes = resume->peak_memory_bytes;
    report.stopped_early = resume->stopped_early;
    steps_before = resume->steps;
    seconds_before = resume->seconds;
  }
  std::uint64_t steps_finished = 0;  // of this process's runs that finished (not a dropped one)
  const auto save = [&] {
    watch.save({explorer.state(), saved_verdicts(report.verdicts), steps_before + steps_finished,
                report.peak_memory_bytes, seconds_before + seconds(), report.stopped_early});
  };
  auto last_save = started;
  std::size_t depth = 0;  // steps of the latest complete run
  std::size_t kept = 0;   // what the explorer keeps, as last measured
  std::uint64_t next_measure = 0;
  while (!report.stopped_early) {
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
      explorer.drop_run();
      break;
    } catch (const std::bad_alloc&) {  // the host ran out before the budget did: stop as at the budget
      report.out_of_memory = true;
      report.allocation_failed = true;
      break;
    }
    steps_finished = strategy.steps();
    if (complete) depth = result.steps;
    const std::uint64_t runs = explorer.complete_runs() + explorer.abandoned_runs();
    if (runs >= next_measure) {
      kept = explorer.memory_bytes();
      next_measure = runs + 1 + kept / explore_parts::measure_every_bytes;
      report.peak_memory_bytes = std::max(report.peak_memory_bytes, kept);
    }
    if (watch.progress)
      watch.progress(
          {runs, explorer.complete_runs(), explorer.estimated_classes(), depth, explorer.frontier_size(), kept});
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
    if (watch.save && std::chrono::duration<double>(std::chrono::steady_clock::now() - last_save).count() >=
                          watch.save_every_seconds) {
      save();
      last_save = std::chrono::steady_clock::now();
    }
  }
  if (watch.save && !report.allocation_failed) save();
  report.complete = explorer.complete_runs();
  report.abandoned = explorer.abandoned_runs();
  report.exhausted = explorer.exhausted() && !report.stopped_early;
  report.bound_hit = explorer.bound_hit();
  report.frontier = explorer.frontier_size();
  report.steps = steps_before + strategy.steps();
  report.estimated_classes = explorer.estimated_classes();
  report.seconds = seconds_before + seconds();
  return report;
}

}  // namespace weft::sim
