#pragma once
// Programs of several launches (docs/semantics.md §12): the kernel runs `count` times in a row on
// every core, as a jitted program runs consecutive pallas_calls. Each core knows which launch it
// is in (0-based here; reports count from 1). A core's launch advances when it ends a launch
// (sim/ops/launch_end.hpp), before its device's barrier, so a core that has ended launch k counts
// as in launch k+1 while it waits there. Nothing orders the devices' launches against each
// other: devices run different launches at the same time.
//
// A launch reaches another core through a signal, a DMA's landing or a DMA's completion
// signal. When the two sides are in different launches the effect has crossed a launch boundary
// (crossed_launch): the slot it lands in belongs to another launch's semaphore or scratch. The
// barrier semaphore is the one object that carries across (its handshake is what orders
// launches), and so are the sync copies' semaphore and the HBM buffers.

#include <cstdint>
#include <vector>

namespace weft::model {

class Launches {
 public:
  Launches(int count, int cores) : count_(count), launch_(static_cast<std::size_t>(cores), 0) {}

  int count() const { return count_; }
  bool several() const { return count_ > 1; }
  // The launch `global_core` is in.
  int of(int global_core) const { return launch_[static_cast<std::size_t>(global_core)]; }
  void advance(int global_core) { ++launch_[static_cast<std::size_t>(global_core)]; }

 private:
  int count_;
  std::vector<int> launch_;  // per global core
};

}  // namespace weft::model
