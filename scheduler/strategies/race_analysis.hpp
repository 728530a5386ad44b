#pragma once
// The race analysis of one run (Optimal-DPOR's, explorer.hpp): which reversals of its races are
// worth inserting into wakeup trees. Both explorers use it, the one-thread explorer and the
// workers of the shared tree (shared_wakeup_tree.hpp).
//
// For every race e_i ≲ e_j of the run (happens_before.hpp), v is the transitions after e_i that
// do not happen after it, then e_j: all of them, those after e_j too (Optimal-DPOR's notdep;
// SimGrid's ODPOR notes the same subtlety). v must not be cut at e_j: a core asleep at e_i's
// state whose next transition comes only after e_j would look independent of the cut v, a weak
// initial of it, and the reversal would be dropped as covered by that core's sibling branch,
// though the class it stands for has another transition before that core's (a signal before the
// wait it feeds); docs/decisions/explorer-whole-notdep.md. A reversal is kept when it can run
// (reversibility.hpp) and no actor asleep at the state before e_i is a weak initial of v (then a
// sibling explored it).
// The kept ones are handed over in the order the one-thread explorer inserts them (by e_j, then
// by e_i in run order); nothing they are checked against changes while they are inserted, so
// collecting them first and inserting them later gives the same trees.
//
// Reuse. The one-thread explorer keeps what the analysis of a run made (AnalysisMemory), and the
// analysis of the next run, which replays the first events of that one, keeps its order, its
// counters and its reversible races over those events (growing_order.hpp): a race's
// reversibility depends on the run up to its second transition alone. Each kept race's v, which
// runs to the end of the run, is built again, as is everything from where the runs part.
//
// A run's end. The transitions still enabled when the run stopped, which never ran, are analysed
// as if they came after it (DMA phases pending when the last core finished), and the run's last
// transition counts as dependent with each of them that was enabled before it: it ended the run
// and so disabled them (the last core's exit, or an access that raced: with race detection a
// run stops at its first race). A touch of a pseudo-object, the run's end, written by the last
// transition and read by each left one, makes them conflict. Footprints alone miss those pairs,
// and without them the explorer never tried what the left core would have done instead (exit
// before a DMA lands: dma_in_flight). The left transitions are alternatives, not a sequence:
// happens-before orders them after the run but not among themselves. Ordered one after another,
// a left store dependent with both a scope's end and a left DMA phase made the race between
// those two look indirect, and it was never reversed (a semaphore_leak behind two scopes that
// end with copies in flight went unseen).

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/growing_order.hpp"
#include "scheduler/strategies/happens_before.hpp"
#include "scheduler/strategies/held_bytes.hpp"
#include "scheduler/strategies/reversibility.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::scheduler {

// Actors asleep at a state, with the footprints of the transitions they would take.
using Sleep = std::vector<std::pair<StableActor, Footprint>>;

inline bool asleep(const Sleep& sleep, StableActor actor) {
  return std::any_of(sleep.begin(), sleep.end(), [&](const auto& entry) { return entry.first == actor; });
}

// An explorer's free choice among `enabled`: the last actor if it is awake (no preemption),
// else the first awake one; enabled.size() when all are asleep.
inline std::size_t awake_choice(std::span<const StableActor> enabled, const Sleep& sleep,
                                std::optional<StableActor> last) {
  std::size_t chosen = enabled.size();
  for (std::size_t k = 0; k < enabled.size(); ++k) {
    if (asleep(sleep, enabled[k])) continue;
    if (chosen == enabled.size() || (last && enabled[k] == *last)) chosen = k;
  }
  return chosen;
}

// A reversal to insert at the state before run step `at`.
struct Reversal {
  std::size_t at;
  Sequence sequence;
};

// What the analysis of one run leaves for the next one's (see Reuse above).
struct AnalysisMemory {
  GrowingOrder order;
  Reversibility reversibility;
  std::vector<std::pair<std::size_t, std::size_t>> reversible;  // its races (j, i) that can be reversed, by j

  // The heap bytes it holds, for the explorer's memory budget.
  std::size_t memory_bytes() const {
    return order.memory_bytes() + reversibility.memory_bytes() + held_bytes(reversible);
  }
};

// Analyses `run` (its first `length` events ran; the rest were left enabled at its end, and
// `last_enabled` is what was enabled before its last step). The end's touches are put on the
// events while the analysis lives and taken off again when it is destroyed: the footprints of
// the run's events stay what they were.
class RaceAnalysis {
 public:
  RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled);
  // With the run's order already made (HappensBefore::Clocks of another process's analysis of
  // the same run): for reversal() only, reversals() needs its races.
  RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled,
               HappensBefore order);
  // Keeping what `memory` holds of the last run analysed with it for at most the first `kept`
  // events of `run` (which must be that run's, unchanged): the same reversals, in the same order.
  RaceAnalysis(std::vector<Event>& run, std::size_t length, std::span<const StableActor> last_enabled,
               AnalysisMemory& memory, std::size_t kept);
  RaceAnalysis(const RaceAnalysis&) = delete;
  RaceAnalysis& operator=(const RaceAnalysis&) = delete;
  ~RaceAnalysis();

  // Every reversal kept, in insertion order; `sleep_at(i)` is the sleep set of the state before
  // step i. The sequences refer to this analysis and the run: insert them while both live.
  void reversals(const std::function<const Sleep&(std::size_t)>& sleep_at,
                 const std::function<void(Reversal&)>& take) const;
  // The reversal of the race e_i ≲ e_j (i < j, a race of this run), as reversals() builds it: a
  // kept one is named by its two events, from which another analysis of the same run (the tree
  // owner's, sim/engine/explore_over_ranks.hpp) builds it again.
  Reversal reversal(std::size_t i, std::size_t j) const;
  const HappensBefore& order() const { return *order_; }

 private:
  void mark_end(std::span<const StableActor> last_enabled);  // the touches of the run's end
  // Appends the races (j, i) that can be reversed, for j from `from` on, to `out`.
  void reversible_races(const Reversibility& reversibility, std::size_t from,
                        std::vector<std::pair<std::size_t, std::size_t>>& out) const;

  std::vector<Event>& run_;
  std::size_t length_;
  std::optional<HappensBefore> own_order_;
  const HappensBefore* order_;
  const AnalysisMemory* memory_ = nullptr;  // when its reversible races are this run's
};

}  // namespace weft::scheduler
