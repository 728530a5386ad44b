#include "model/barrier_clocks.hpp"

namespace weft::model {

template <class Clock>
typename BarrierClocks<Clock>::Round& BarrierClocks<Clock>::next_round(int global_core,
                                                                       std::vector<std::uint32_t>& counts) {
  if (rounds_.empty()) {  // kernels without a device barrier pay nothing
    rounds_.assign(static_cast<std::size_t>(cores_ / cores_per_device_) * 2, Round(*arena_));
    arrived_.assign(static_cast<std::size_t>(cores_), 0);
    left_.assign(static_cast<std::size_t>(cores_), 0);
  }
  const std::uint32_t barrier = counts[static_cast<std::size_t>(global_core)]++;
  const auto device = static_cast<std::size_t>(global_core / cores_per_device_);
  return rounds_[device * 2 + barrier % 2];
}

template <class Clock>
void BarrierClocks<Clock>::arrive(int global_core, const Clock& clock) {
  Round& round = next_round(global_core, arrived_);
  if (round.arrivals == cores_per_device_) {  // two barriers back, every core has left it
    round.joined.clear();
    round.arrivals = 0;
  }
  round.joined.join(clock);
  ++round.arrivals;
}

template <class Clock>
void BarrierClocks<Clock>::leave(int global_core, Clock& clock) {
  clock.join(next_round(global_core, left_).joined);
}

template class BarrierClocks<TreeClock>;
template class BarrierClocks<VectorClock>;

}  // namespace weft::model
