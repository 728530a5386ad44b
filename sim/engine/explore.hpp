#pragma once
// Runs the explorer (scheduler/strategies/explorer.hpp) over a simulation: one execution per run, each
// verdict tallied with the first execution that gave it.
//
// A large configuration can have more interleaving classes than any machine holds wakeup trees
// for, so an exploration is watched as it goes (ExploreWatch): after each run, what the
// explorer keeps is measured against a memory budget (the host memory budget,
// model/host_memory.hpp, unless the caller gives another) and a progress callback hears of it;
// at every step, a stop flag (SIGINT, SIGTERM) ends the run in hand; an allocation that fails
// (std::bad_alloc: an address-space or cgroup limit the budget did not foresee) stops it as the
// budget does. Each way the exploration stops with what it found so far, and the report says
// why it stopped.

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "scheduler/strategies/explorer.hpp"
#include "sim/engine/simulation.hpp"

namespace weft::sim {

struct FoundVerdict {
  model::Verdict verdict;
  std::uint64_t runs = 0;
  ExecutionResult first;  // its schedule replays the verdict
};

struct ExploreReport {
  std::uint64_t complete = 0;
  std::uint64_t abandoned = 0;         // redundant runs cut short by sleep sets
  std::vector<FoundVerdict> verdicts;  // in the order first found
  bool exhausted = false;              // every interleaving class was visited
  bool bound_hit = false;              // max executions or the preemption bound cut the space
  bool stopped_early = false;          // stopped at a failure (no keep_going)
  bool interrupted = false;            // the stop flag was raised
  bool out_of_memory = false;          // the explorer's state passed the memory budget, or:
  bool allocation_failed = false;      // the host ran out first (std::bad_alloc); out_of_memory too
  std::size_t peak_memory_bytes = 0;   // the most the explorer kept after a run
  std::size_t frontier = 0;            // wakeup-tree branches still waiting when it stopped
  std::uint64_t steps = 0;             // taken over all runs, the abandoned ones' included
  double estimated_classes = 0;        // the explorer's estimate of the classes (complete runs)
                                       // of the whole space (0: not estimated, with several jobs)
  double seconds = 0;

  bool found(model::Verdict verdict) const;
  // For a scenario that expects `expect`: every run ok when that is ok; else `expect` found, and
  // no failure other than it.
  bool as_expected(model::Verdict expect) const;
};

// An exploration's whole state between two runs: what a checkpoint keeps (explore_checkpoint.hpp)
// and what explore() goes on from. Each verdict keeps the schedule of its first run, which a
// resumed exploration replays to have that run's result again.
struct SavedVerdict {
  model::Verdict verdict = model::Verdict::ok;
  std::uint64_t runs = 0;
  scheduler::Schedule schedule;
  friend bool operator==(const SavedVerdict&, const SavedVerdict&) = default;
};
struct ExploreSaved {
  scheduler::ExplorerState explorer;
  std::vector<SavedVerdict> verdicts;  // in the order first found
  std::uint64_t steps = 0;             // of the runs finished
  std::size_t peak_memory_bytes = 0;
  double seconds = 0;          // spent so far, over every process that ran it
  bool stopped_early = false;  // it stopped at a failure: resuming it runs nothing more
  friend bool operator==(const ExploreSaved&, const ExploreSaved&) = default;
};

// What an exploration is watched by, after each run and at every step.
struct ExploreProgress {
  std::uint64_t runs = 0;  // complete and abandoned
  std::uint64_t complete = 0;
  double estimated_classes = 0;  // as in ExploreReport
  std::size_t depth = 0;         // steps of the latest complete run
  std::size_t frontier = 0;      // wakeup-tree branches waiting
  std::size_t memory_bytes = 0;  // what the explorer keeps
};
struct ExploreWatch {
  std::size_t memory_budget = 0;                         // bytes; 0: the host memory budget of the config
  const std::atomic<bool>* stop = nullptr;               // raised by a signal handler: stop at the next step
  std::function<void(const ExploreProgress&)> progress;  // after each run
  // Checkpoints (the one-thread explore only; the others refuse them: std::invalid_argument).
  // `save` is given the whole state after a run once `save_every_seconds` of wall clock have
  // passed since the last save (the clock decides when it is saved, never what is explored), and
  // when the exploration stops, however it stops (the run in hand, stopped by the flag, is
  // dropped: the state is the one before it), but for a failed allocation (the last periodic
  // save stands). With `resume`, the exploration goes on from that state (taken with the same
  // options, configuration and scenario: the caller checks) and ends as it would have without
  // the stop: the same runs, verdicts and counts.
  std::function<void(const ExploreSaved&)> save;
  double save_every_seconds = 5;
  const ExploreSaved* resume = nullptr;
};

// A resumed exploration whose verdicts' first runs do not replay as saved (the scenario's code
// changed since the checkpoint).
struct ResumeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Explores until the space is exhausted, a bound is hit, (unless keep_going) the first run
// whose verdict is not ok, the memory budget is passed, or the stop flag is raised. Throws
// ConfigError when the configuration cannot be explored (dma.execution = on_wait, whose phases
// run only for a blocked waiter: not a choice the explorer can reverse).
ExploreReport explore(Simulation& simulation, const scheduler::ExploreOptions& options, bool keep_going,
                      const Simulation::Inspector* inspect = nullptr, const ExploreWatch& watch = {});

// The same with one worker thread per simulation, sharing one tree of states and wakeup trees
// (scheduler/strategies/shared_wakeup_tree.hpp): the same complete runs and verdicts as one
// worker when the space is exhausted, each failure's representative the one with the least
// schedule (not the first found, which depends on timing), the verdicts listed ok first, then
// by verdict. Under --max-executions, which runs ran depends on timing. Refuses a preemption
// bound and `reduction = false` (std::invalid_argument): those stay with the one-thread explorer.
ExploreReport explore_in_parallel(std::span<Simulation* const> simulations, const scheduler::ExploreOptions& options,
                                  bool keep_going, const ExploreWatch& watch = {});

}  // namespace weft::sim
