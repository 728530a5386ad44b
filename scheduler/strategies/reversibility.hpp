#pragma once
// Whether a race can be reversed when its second transition blocks.
//
// A wait is enabled only when its cell holds enough; a signal that enables it is dependent with
// it (an add against a take), so it happens before the wait. Reversing such a race (signal,
// wait) means running the wait before the signal, which is possible only if the cell holds
// enough without it. The count at that point is every add and take of the cell before the first
// event of the race, plus those of the reversal's other transitions. A race whose reversal would
// block is dropped, so every sequence put into a wakeup tree can run and no run is blocked by a
// semaphore.
//
// Most races of a run are of this kind (every wait races with the signal that let it through),
// and most cannot be reversed, so the test is made before the reversal is built, and costs what
// the cell's own history near the race costs, not the run's length:
//   - the adds and takes before e_i are a prefix sum of the cell's history, found by bisection;
//   - of the reversal's transitions (notdep(e_i): every transition after e_i that does not
//     happen after it, then e_j), only those between e_i and e_j can count: a later one that
//     touches the cell is dependent with e_j's take (a take conflicts with every touch of its
//     counter), so it happens after e_j, which happens after e_i.
// Like happens-before (growing_order.hpp), the counters' history of one run is grown from the
// last one's over the events the two share.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/happens_before.hpp"
#include "scheduler/strategies/object_table.hpp"

namespace weft::scheduler {

class Reversibility {
 public:
  Reversibility() = default;
  // `run`'s first `length` transitions ran; `order` is its happens-before. Both must outlive this.
  Reversibility(std::span<const Event> run, std::size_t length, const HappensBefore& order) {
    grow(run, length, order, 0);
  }
  // Made again for `run`, `length` and `order`, keeping the last grow's counters for at most the
  // first `kept` transitions (which must be that run's, unchanged). The same answers as made
  // from nothing. `run` and `order` must outlive the next grow.
  void grow(std::span<const Event> run, std::size_t length, const HappensBefore& order, std::size_t kept);

  // Whether e_j, run in the reversal of the race (e_i, e_j), finds every counter it takes from
  // large enough.
  bool reversible(std::size_t i, std::size_t j) const;

  // The heap bytes it holds (scheduler/strategies/held_bytes.hpp).
  std::size_t memory_bytes() const;

 private:
  struct Change {
    std::size_t event;
    std::int64_t delta;  // the event's adds less its takes of the counter
    std::int64_t total;  // the counter after it: every change up to it
  };

  std::span<const Event> run_;
  std::size_t length_ = 0;
  const HappensBefore* order_ = nullptr;
  ObjectTable<std::vector<Change>> counters_;  // each counter's changes, in run order
  std::vector<std::uint32_t> changed_;         // the counter of each change made, in run order
};

}  // namespace weft::scheduler
