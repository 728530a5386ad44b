#pragma once
// The race detector's clocks of device barriers (model/device_barrier.hpp): what orders the
// events before a barrier before those after it.
//
// A core's n-th arrival is at its device's n-th barrier: the arrival joins the core's clock
// into that barrier's clock, and the core's n-th departure acquires it. So a departure knows
// every event its device's cores did before arriving, and nothing they did after (their
// arrival ticks their clock, and a core arriving at the next barrier joins that barrier's
// clock, not this one's). That is the seed's update_clocks_for_device_barrier, which joins
// every core's clock into every other's, exact whatever the semaphore clock mode.
//
// Only two barriers of a device are ever open at once: a core arrives at barrier n + 2 only
// after leaving n + 1, which needs every core's arrival at n + 1, which each made after leaving
// n. So each device keeps two rounds, by the barrier's parity, and a round whose barrier every
// core has arrived at starts over when the next arrival of its parity comes.

#include <cstdint>
#include <vector>

#include "model/tree_clock.hpp"
#include "model/vector_clock.hpp"

namespace weft::model {

// `Clock`: model/tree_clock.hpp's or model/vector_clock.hpp's, as the race detector's.
template <class Clock>
class BarrierClocks {
 public:
  BarrierClocks(typename Clock::Arena& arena, int cores, int cores_per_device)
      : arena_(&arena), cores_(cores), cores_per_device_(cores_per_device) {}

  // `global_core`, whose clock is `clock`, arrives (the caller ticks the clock after, as for
  // any release) / leaves (its clock acquires the barrier's).
  void arrive(int global_core, const Clock& clock);
  void leave(int global_core, Clock& clock);

 private:
  struct Round {
    explicit Round(typename Clock::Arena& arena) : joined(arena) {}
    Clock joined;  // gathers the arrivals' clocks
    int arrivals = 0;
  };
  // The round of the next barrier `global_core` arrives at (or leaves), counting it.
  Round& next_round(int global_core, std::vector<std::uint32_t>& counts);

  typename Clock::Arena* arena_;
  int cores_;
  int cores_per_device_;
  std::vector<Round> rounds_;                  // [device * 2 + barrier % 2], made on first use
  std::vector<std::uint32_t> arrived_, left_;  // per global core: barriers arrived at, left
};

}  // namespace weft::model
