#include "sim/ops/objects.hpp"

namespace weft::sim::ops {

scheduler::Box box_of(const model::Rect& rect) {
  scheduler::Box box;
  box.rank = rect.rank;
  for (int d = 0; d < rect.rank; ++d) {
    box.start[d] = rect.start[d];
    box.size[d] = rect.size[d];
  }
  if (rect.rank == 0) {  // a scalar buffer: one element, not "the whole object"
    box.rank = 1;
    box.size[0] = 1;
  }
  return box;
}

scheduler::Touch cell(const model::Machine& machine, int semaphore, int global_core, scheduler::TouchMode mode,
                      std::int64_t amount, bool ordered) {
  scheduler::Touch touch;
  touch.object = {semaphore_cell, machine.semaphores().id(semaphore), global_core, 0};
  touch.mode = mode;
  touch.amount = amount;
  touch.ordered = ordered;
  return touch;
}

}  // namespace weft::sim::ops
