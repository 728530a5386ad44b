#pragma once
// The runs of an exploration whose workers share one wakeup tree (threads:
// explore_in_parallel.cpp; MPI ranks: explore_over_ranks.cpp), counted as each is filed into the
// tree: complete or abandoned, the last complete run's depth, what the tree keeps (its peak goes
// into the report), the progress line, and each complete run's verdict (explore_parts::tally,
// keeping the least schedule, so that the report does not depend on which worker finished
// first). The caller holds whatever guards the tree.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "scheduler/strategies/shared_wakeup_tree.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/explore_parts.hpp"

namespace weft::sim {

class SharedTreeRuns {
 public:
  SharedTreeRuns(ExploreReport& report, const ExploreWatch& watch, bool keep_going, std::size_t budget)
      : report_(report), watch_(watch), keep_going_(keep_going), budget_(budget) {}

  // Counts a run; true when the exploration must halt, the report saying why: a failure found
  // without keep_going (stopped_early), or the tree keeping more than the budget while branches
  // remain (out_of_memory).
  bool count(const scheduler::SharedWakeupTree& tree, const ExecutionResult& result, bool complete) {
    (complete ? report_.complete : report_.abandoned) += 1;
    ++runs_;
    if (complete) depth_ = result.steps;
    kept_ = tree.memory_bytes();
    report_.peak_memory_bytes = std::max(report_.peak_memory_bytes, kept_);
    // No estimate of the classes: the shared tree's states are not on one path (class_estimate.hpp).
    if (watch_.progress) watch_.progress({runs_, report_.complete, 0, depth_, tree.waiting(), kept_});
    bool halt = false;
    if (complete) {
      explore_parts::tally(report_, result, true);
      if (result.verdict != model::Verdict::ok && !keep_going_) {
        report_.stopped_early = true;
        halt = true;
      }
    }
    if (kept_ > budget_ && !tree.done()) {
      report_.out_of_memory = true;
      halt = true;
    }
    return halt;
  }

 private:
  ExploreReport& report_;
  const ExploreWatch& watch_;
  const bool keep_going_;
  const std::size_t budget_;
  std::uint64_t runs_ = 0;
  std::size_t depth_ = 0, kept_ = 0;
};

}  // namespace weft::sim
