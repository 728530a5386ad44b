// explore_in_parallel (explore.hpp): one thread per simulation, each a worker of one shared tree.
//
// A worker claims a waiting branch and runs it on its own simulation. Then, on its own, it analyses
// the run's races and makes the run's new states; then it puts the states and the reversals into
// the tree. It takes the one lock twice a run: to claim, and to put the run in. Running and
// analysing, the bulk of a run, happen outside it. A worker with nothing to claim waits until
// another finishes a run (which may add branches) or the tree is done.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "scheduler/strategies/claimed_run.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/explore_parts.hpp"
#include "sim/engine/shared_tree_runs.hpp"

namespace weft::sim {
namespace {

using scheduler::SharedWakeupTree;

// The lock is held for a few microseconds per run: a worker that finds it taken tries again a
// while before it sleeps (a futex sleep and wake cost more than the wait, measured).
void lock_soon(std::unique_lock<std::mutex>& lock) {
  for (int attempt = 0; attempt < 4000; ++attempt)
    if (lock.try_lock()) return;
  lock.lock();
}

class SharedExploration {
 public:
  SharedExploration(const scheduler::ExploreOptions& options, bool keep_going, const ExploreWatch& watch,
                    std::size_t budget)
      : options_(options), watch_(watch), counted_(report_, watch, keep_going, budget) {}

  // A worker's loop; whatever it throws stops every worker and is rethrown by report().
  void work(Simulation& simulation) noexcept;
  ExploreReport report(double seconds);

 private:
  void claim_and_run(Simulation& simulation);
  // Under the lock: one run's verdict, progress and memory; whether to stop.
  void count_run(const ExecutionResult& result, bool complete);
  void halt_all() {
    halted_.store(true, std::memory_order_relaxed);
    ready_.notify_all();
  }

  const scheduler::ExploreOptions& options_;
  const ExploreWatch& watch_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::atomic<bool> halted_{false};  // read at every step of every worker's run
  SharedWakeupTree tree_;
  ExploreReport report_;
  SharedTreeRuns counted_;  // after report_, which it counts into
  std::uint64_t claims_ = 0, steps_ = 0;
  int waiting_ = 0;   // workers waiting for a branch
  int unpruned_ = 0;  // runs since the tree was last pruned
  std::exception_ptr error_;
};

void SharedExploration::work(Simulation& simulation) noexcept {
  try {
    claim_and_run(simulation);
  } catch (const std::bad_alloc&) {  // the host ran out before the budget did: stop as at the budget
    const std::lock_guard guard(mutex_);
    report_.out_of_memory = true;
    report_.allocation_failed = true;
    halt_all();
  } catch (...) {
    const std::lock_guard guard(mutex_);
    if (!error_) error_ = std::current_exception();
    halt_all();
  }
}

void SharedExploration::claim_and_run(Simulation& simulation) {
  scheduler::ClaimedRun strategy;
  explore_parts::Stoppable stoppable(strategy, watch_.stop, &halted_);
  std::optional<SharedWakeupTree::Path> near;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (halted_.load(std::memory_order_relaxed)) break;
    if (options_.max_executions > 0 && claims_ >= options_.max_executions) {
      report_.bound_hit = true;
      break;
    }
    std::optional<SharedWakeupTree::Claim> claim = tree_.claim(near ? &*near : nullptr, &strategy.sleeps());
    near.reset();
    // Freeing what no insertion can reach walks down from the start: once every 16 runs.
    if (++unpruned_ >= 16) {
      tree_.prune();
      unpruned_ = 0;
    }
    if (!claim) {
      if (tree_.done()) break;
      ++waiting_;
      ready_.wait(lock);
      --waiting_;
      continue;
    }
    ++claims_;
    lock.unlock();

    strategy.start(std::move(*claim));
    ExecutionResult result;
    bool complete = true;
    try {
      result = simulation.run(stoppable);
    } catch (const scheduler::ExecutionAbandoned&) {
      complete = false;
    } catch (const explore_parts::ExploreStopped&) {
      lock.lock();  // its claim stays running: every worker stops
      if (watch_.stop != nullptr && watch_.stop->load()) report_.interrupted = true;
      halt_all();
      break;
    }
    std::vector<scheduler::Reversal>& reversals = strategy.analyse();
    SharedWakeupTree::Prepared states = strategy.new_states();
    lock_soon(lock);
    near = tree_.finish(strategy.claim(), std::move(states), strategy.run(), reversals);
    count_run(result, complete);
    if (waiting_ > 0) ready_.notify_all();
  }
  steps_ += stoppable.steps();
  ready_.notify_all();
}

void SharedExploration::count_run(const ExecutionResult& result, bool complete) {
  if (counted_.count(tree_, result, complete)) halt_all();
}

ExploreReport SharedExploration::report(double seconds) {
  if (error_) std::rethrow_exception(error_);
  ExploreReport report = std::move(report_);
  const bool done = tree_.done();
  report.exhausted = done && !report.stopped_early && !report.interrupted && !report.out_of_memory;
  report.bound_hit = report.bound_hit && !done;
  report.frontier = tree_.waiting();
  report.steps = steps_;
  report.seconds = seconds;
  std::sort(report.verdicts.begin(), report.verdicts.end(),
            [](const FoundVerdict& a, const FoundVerdict& b) { return a.verdict < b.verdict; });
  return report;
}

}  // namespace

ExploreReport explore_in_parallel(std::span<Simulation* const> simulations, const scheduler::ExploreOptions& options,
                                  bool keep_going, const ExploreWatch& watch) {
  if (simulations.empty()) throw std::invalid_argument("explore: no simulation to run on");
  if (options.preemption_bound || !options.reduction)
    throw std::invalid_argument("explore: more than one job explores with the reduction and no preemption bound");
  explore_parts::refuse_checkpoints(watch, "more than one job");
  const Config& config = simulations.front()->config();
  explore_parts::check_explorable(config);
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  const std::size_t budget = explore_parts::memory_budget(watch, config);
  SharedExploration exploration(options, keep_going, watch, budget);
  std::vector<std::thread> workers;
  for (std::size_t k = 1; k < simulations.size(); ++k)
    workers.emplace_back([&exploration, simulation = simulations[k]] { exploration.work(*simulation); });
  exploration.work(*simulations.front());
  for (std::thread& worker : workers) worker.join();
  return exploration.report(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace weft::sim
