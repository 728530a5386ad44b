#pragma once
// Runs the explorer (scheduler/strategies/explorer.hpp) over a simulation: one execution per run, each
// verdict tallied with the first execution that gave it.

#include <cstdint>
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
  std::uint64_t abandoned = 0;          // redundant runs cut short by sleep sets
  std::vector<FoundVerdict> verdicts;   // in the order first found
  bool exhausted = false;               // every interleaving class was visited
  bool bound_hit = false;               // max executions or the preemption bound cut the space
  bool stopped_early = false;           // stopped at a failure (no keep_going)
  double seconds = 0;

  bool found(model::Verdict verdict) const;
  // For a scenario that expects `expect`: every run ok when that is ok; else `expect` found, and
  // no failure other than it.
  bool as_expected(model::Verdict expect) const;
};

// Explores until the space is exhausted, a bound is hit, or (unless keep_going) the first run
// whose verdict is not ok. Throws ConfigError when the configuration cannot be explored
// (dma.execution = on_wait, whose phases run only for a blocked waiter: not a choice the
// explorer can reverse).
ExploreReport explore(Simulation& simulation, const scheduler::ExploreOptions& options, bool keep_going,
                      const Simulation::Inspector* inspect = nullptr);

}  // namespace weft::sim
