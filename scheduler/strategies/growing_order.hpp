#pragma once
// Happens-before (happens_before.hpp) of runs one after another, each grown from the last one's
// over the events the two share.
//
// Why. The explorer's next run replays the last one up to the state its branch leaves from, then
// goes its own way; on a long kernel the two share all but their last few steps. The order of
// a transition is made from the transitions before it alone, so over the shared events the next
// run's order is the last one's: its clocks, chains and races are kept, and only the events
// from where the runs part are ordered anew. An explored run's analysis then costs what changed,
// not the run's length (docs/performance/explorer.md).
//
// Contract. grow(run, ran, kept) makes the order HappensBefore(run, ran) makes, clocks, chain
// numbers and races alike (tests/scheduler/growing_order_test.cpp checks it on random runs). The
// caller promises that `run`'s first `kept` events are those of the run grown last, unchanged
// where they are (the touch index kept pointers to their touches). Fewer are kept when that
// could not give the same order:
//   - none of the two runs' last transitions (the run's end touches them, race_analysis.hpp);
//   - none when a DMA's lane would not stand. A DMA takes over a lane whose last DMA has run
//     its last transition in the run, a fact of the whole run: so the kept events must agree
//     with this run on which DMAs ran their last transition among them. A DMA that did in the
//     last run and goes on in this one (or the reverse) makes it start from nothing.
// `reused()` says how many were kept.
//
// Cost of a grow: the new events' construction (as HappensBefore's), plus a pass over every
// event's actor (where each DMA ends) and over the kept ones' chain (each chain's latest), and
// the index's undo of what is taken back out.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/happens_before.hpp"
#include "scheduler/strategies/touch_index.hpp"

namespace weft::scheduler {

class GrowingOrder {
 public:
  GrowingOrder();
  GrowingOrder(const GrowingOrder&) = delete;
  GrowingOrder& operator=(const GrowingOrder&) = delete;

  // The order of `run`, whose first `ran` events ran (the rest were left enabled at its end),
  // keeping what the last grow made for at most its first `kept` events.
  const HappensBefore& grow(std::span<const Event> run, std::size_t ran, std::size_t kept);
  const HappensBefore& order() const { return order_; }
  // How many events the last grow kept.
  std::size_t reused() const { return reused_; }
  // The heap bytes it holds, the order's included (scheduler/strategies/held_bytes.hpp).
  std::size_t memory_bytes() const;

 private:
  friend class HappensBefore;  // HappensBefore(run, ran) is a grow from nothing

  static constexpr std::size_t none = TouchIndex::none;
  static constexpr std::uint32_t no_chain = static_cast<std::uint32_t>(-1);

  bool lanes_stand(std::size_t kept) const;                     // dma_last_ against previous_dma_last_
  void cut_back(std::span<const Event> run, std::size_t kept);  // the order and its state, as after event kept - 1
  void order_next(std::span<const Event> run, std::size_t ran, std::size_t j);
  std::uint32_t new_chain();

  HappensBefore order_;
  TouchIndex touched_{order_.position_};
  // Each DMA's last transition in the run grown now and in the one before: [starter][sequence].
  std::vector<std::vector<std::size_t>> dma_last_, previous_dma_last_;
  std::vector<std::vector<std::uint32_t>> core_chain_, dma_chain_;  // [core][0], [starter][sequence]
  std::vector<std::vector<std::size_t>> creator_;  // [starter][k]: the transition that started its k-th DMA
  std::vector<std::size_t> latest_;                // per chain: its latest transition so far
  std::vector<std::uint32_t> count_;               // and how many it has had (the latest's position)
  std::vector<std::size_t> busy_until_;            // per chain: its DMA's last transition (none: a core's)
  std::vector<std::uint32_t> lanes_;               // the chains of DMAs, in order
  std::vector<std::uint32_t> clock_;               // e_j's clock while it is made
  std::vector<std::size_t> direct_, dependents_, found_;
  std::size_t previous_ran_ = 0, reused_ = 0;
};

}  // namespace weft::scheduler
