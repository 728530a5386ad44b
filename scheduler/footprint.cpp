#include "scheduler/footprint.hpp"

namespace weft::scheduler {

bool Box::overlaps(const Box& other) const {
  if (rank == 0 || other.rank == 0) return true;
  if (rank != other.rank) return true;  // different views of one object: assume they meet
  for (int d = 0; d < rank; ++d) {
    if (size[d] <= 0 || other.size[d] <= 0) return false;
    if (start[d] + size[d] <= other.start[d] || other.start[d] + other.size[d] <= start[d]) return false;
  }
  return true;
}

bool conflict(const Touch& a, const Touch& b) {
  if (!(a.object == b.object)) return false;
  using M = TouchMode;
  const bool counter_a = a.mode == M::add || a.mode == M::take || a.mode == M::observe;
  const bool counter_b = b.mode == M::add || b.mode == M::take || b.mode == M::observe;
  if (counter_a || counter_b) {
    if (a.mode == M::add && b.mode == M::add) return a.ordered || b.ordered;
    if (a.mode == M::observe && b.mode == M::observe) return false;
    return true;
  }
  if (a.mode == M::read && b.mode == M::read) return false;
  return a.box.overlaps(b.box);
}

bool dependent(const Footprint& a, const Footprint& b) {
  for (const Touch& x : a.touches)
    for (const Touch& y : b.touches)
      if (conflict(x, y)) return true;
  return false;
}

}  // namespace weft::scheduler
