#include "sim/engine/explore.hpp"

#include <algorithm>
#include <chrono>

#include "model/host_memory.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

// What the explorer keeps is measured by a walk over all of it, so not after every run but after
// one run more for each 64 KiB it kept at the last measure: the walks then cost about as much as
// walking 64 KiB per run (walking the whole tree after every run cost 40% of a small kernel's
// exploration), and the budget is passed by at most that many runs' growth (some KB each: a
// few percent of it). Run counts decide, so the point where an exploration stops does not depend
// on the machine's speed.
constexpr std::size_t measure_every_bytes = std::size_t{64} << 10;

// Thrown out of a run when the stop flag is raised.
struct ExploreStopped {};

// The explorer's strategy, with the stop flag looked at before every choice (a relaxed load:
// it never influences a choice, it only ends the run).
class Stoppable final : public scheduler::Strategy {
 public:
  Stoppable(scheduler::Strategy& inner, const std::atomic<bool>* stop) : inner_(inner), stop_(stop) {}
  std::size_t pick(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) throw ExploreStopped{};
    return inner_.pick(enabled, context);
  }
  void after_step(scheduler::Actor actor, const scheduler::StepContext& context) override {
    ++steps_;
    inner_.after_step(actor, context);
  }
  // What the run left enabled: the explorer analyses it as never run (explorer.hpp, "A run's end").
  void at_end(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    inner_.at_end(enabled, context);
  }
  std::uint64_t steps() const { return steps_; }

 private:
  scheduler::Strategy& inner_;
  const std::atomic<bool>* stop_;
  std::uint64_t steps_ = 0;  // of every run, abandoned ones included
};

}  // namespace

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
  if (simulation.config().machine.dma_execution == model::DmaExecution::on_wait)
    throw ConfigError("dma.execution", 0, 0, "dma.execution",
                      "explore needs eager or async DMAs (async runs every interleaving on_wait can, and more); "
                      "add --set dma.execution=async");
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  const std::size_t budget = watch.memory_budget > 0
                                 ? watch.memory_budget
                                 : static_cast<std::size_t>(model::host_budget_bytes(simulation.config().machine));
  scheduler::Explorer explorer(options);
  Stoppable strategy(explorer.strategy(), watch.stop);
  ExploreReport report;
  std::size_t depth = 0;  // steps of the latest complete run
  std::size_t kept = 0;   // what the explorer keeps, as last measured
  std::uint64_t next_measure = 0;
  while (explorer.next()) {
    ExecutionResult result;
    bool complete = true;
    try {
      result = simulation.run(strategy, nullptr, inspect);
    } catch (const scheduler::ExecutionAbandoned&) {
      complete = false;
    } catch (const ExploreStopped&) {
      report.interrupted = true;
      break;
    }
    explorer.finish(complete);
    if (complete) depth = result.steps;
    const std::uint64_t runs = explorer.complete_runs() + explorer.abandoned_runs();
    if (runs >= next_measure) {
      kept = explorer.memory_bytes();
      next_measure = runs + 1 + kept / measure_every_bytes;
      report.peak_memory_bytes = std::max(report.peak_memory_bytes, kept);
    }
    if (watch.progress) watch.progress({runs, depth, explorer.frontier_size(), kept});
    if (complete) {
      auto found = std::find_if(report.verdicts.begin(), report.verdicts.end(),
                                [&](const FoundVerdict& f) { return f.verdict == result.verdict; });
      if (found == report.verdicts.end())
        found = report.verdicts.insert(report.verdicts.end(), {result.verdict, 0, result});
      ++found->runs;
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
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace weft::sim
