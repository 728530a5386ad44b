#pragma once
// The units of a semaphore cell in the order they were signalled (docs/semantics.md §3: a wait takes
// the oldest units first). A signal of 8 may serve two waits of 4, and a wait of 8 may take the
// units of two signals: `take` walks the front of the queue, telling the caller, for each signal
// it takes units from, how many and whether it emptied it. Race detection follows it to join the
// clocks of exactly the signals a wait consumed (model/race_detector.cpp); a trace recorder to
// draw an arrow from each of those signals to the wait (sim/trace/recorder.cpp).
//
// Storage is a vector read from `head`, reset when emptied: a steady pattern of signals and
// waits allocates nothing once warm (a std::deque allocates even when empty).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::model {

template <class Signal>
class UnitFifo {
 public:
  void push(std::int64_t units, Signal signal) { entries_.push_back({units, std::move(signal)}); }
  bool empty() const { return head_ == entries_.size(); }

  // Calls `visit(signal, units)` for each signal with units left, oldest first.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (std::size_t i = head_; i < entries_.size(); ++i) visit(entries_[i].signal, entries_[i].units);
  }

  // Takes up to `amount` units from the front; `served(signal, taken, emptied)` is called for
  // each signal units are taken from, oldest first.
  template <class Served>
  void take(std::int64_t amount, Served&& served) {
    while (amount > 0 && head_ < entries_.size()) {
      Entry& front = entries_[head_];
      const std::int64_t taken = std::min(amount, front.units);
      amount -= taken;
      front.units -= taken;
      const bool emptied = front.units == 0;
      served(front.signal, taken, emptied);
      if (!emptied) break;
      if (++head_ == entries_.size()) {  // empty: start over, keeping the capacity
        entries_.clear();
        head_ = 0;
      }
    }
  }

 private:
  struct Entry {
    std::int64_t units;
    Signal signal;
  };
  std::vector<Entry> entries_;
  std::size_t head_ = 0;
};

}  // namespace weft::model
