#pragma once
// The strategy of one run of a shared exploration (shared_wakeup_tree.hpp): it replays the path
// to the branch a worker claimed, follows the first branches of that branch's wakeup tree (the
// tree takes the rest into the states the run leaves), then chooses as the
// one-thread explorer does (the last actor if it is awake, else the first awake one), keeping the
// sleep sets along the way. It records what the tree and the race analysis need of the run.
//
// A run whose every enabled actor is asleep, or whose wakeup tree asks for an asleep actor, is
// abandoned (ExecutionAbandoned), as with the one-thread explorer.
//
// A run's analysis is grown from the last one's over the steps the two share (race_analysis.hpp's
// AnalysisMemory), as the one-thread explorer's: the events the last analysed run took before
// its path and the claimed one part are kept, their footprints where they were.

#include <optional>
#include <span>
#include <vector>

#include "scheduler/strategies/shared_wakeup_tree.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

class ClaimedRun final : public Strategy {
 public:
  // Sets up the next run.
  void start(SharedWakeupTree::Claim claim);
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;
  void after_step(Actor actor, const StepContext& context) override;
  void at_end(std::span<const Actor> enabled, const StepContext& context) override;

  const SharedWakeupTree::Claim& claim() const { return claim_; }
  const SharedWakeupTree::Run& run() const { return run_; }
  // After the run, outside the tree's lock: its race analysis (kept until the next start: the
  // reversals refer to it) and its new states (SharedWakeupTree::prepare), which take the run's
  // enabled actors and sleep sets past the claimed branch.
  std::vector<Reversal>& analyse();
  const RaceAnalysis& analysis() const { return *analysis_; }  // after analyse()
  SharedWakeupTree::Prepared new_states();
  // The sleep sets of the last run's states up to its claimed branch, to lend to the next claim
  // (SharedWakeupTree::claim).
  std::vector<Sleep>& sleeps() { return run_.sleeps; }

 private:
  SharedWakeupTree::Claim claim_;
  SharedWakeupTree::Run run_;
  std::vector<Event> left_;
  Sleep next_sleep_;                      // the sleep set at the next new state
  std::optional<RaceAnalysis> analysis_;  // after run_: destroyed first, it puts run_'s footprints back
  std::vector<Reversal> reversals_;
  AnalysisMemory analysed_;  // the last analysed run's analysis
  std::size_t intact_ = 0;   // the first events of run_ that are still that run's, untouched
  std::size_t kept_ = 0;     // of those, the ones this run replays (its path shares them)
};

}  // namespace weft::scheduler
