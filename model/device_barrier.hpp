#pragma once
// The device barrier: every core of one device arrives, and none leaves before all have
// arrived (the seed's update_clocks_for_device_barrier orders what each did before it before
// what any does after it; model/race_detector.hpp gives the clocks).
//
// Counted as one cell per core, as a semaphore barrier is: an arrival adds 1 to the cell of
// every core of its device, and a core leaves by taking cores_per_device from its own cell.
// A fast core may arrive at the next barrier before a slow one has left this one; its arrival
// then lands in the slow core's cell after the units that core still needs, so a departure
// takes exactly its own barrier's arrivals (the slow core's own arrival, which precedes the
// fast core's departure, is already there). On a device of one core a barrier is an arrival
// and a departure, and orders nothing.

#include <cstdint>
#include <vector>

#include "model/topology.hpp"

namespace weft::model {

class DeviceBarrier {
 public:
  explicit DeviceBarrier(const Topology& topology)
      : cores_per_device_(topology.cores_per_device()), cells_(static_cast<std::size_t>(topology.cores()), 0) {}

  // `global_core` arrives: one unit in the cell of every core of its device.
  void arrive(int global_core) {
    const int first = global_core - global_core % cores_per_device_;
    for (int core = first; core < first + cores_per_device_; ++core) ++cells_[static_cast<std::size_t>(core)];
  }
  bool can_leave(int global_core) const { return cell(global_core) >= cores_per_device_; }
  void leave(int global_core) { cells_[static_cast<std::size_t>(global_core)] -= cores_per_device_; }

  // The arrivals `global_core`'s cell holds, and how many a departure takes.
  std::int64_t cell(int global_core) const { return cells_[static_cast<std::size_t>(global_core)]; }
  int cores_per_device() const { return cores_per_device_; }

 private:
  int cores_per_device_;
  std::vector<std::int64_t> cells_;  // per global core
};

}  // namespace weft::model
