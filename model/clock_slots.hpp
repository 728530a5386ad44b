#pragma once
// Which clock slot each actor of race detection (a core, a DMA lane: model/race_detector.hpp)
// has. Slots are dealt in 64-slot blocks (model/clock_blocks.hpp's), each block to one *group*:
// the cores with the same index on their devices, and the lanes those cores open. A group's
// cores come first, in device order, then its lanes as they are opened. So on a collective that
// runs one ring (or torus) per core index, a core's clock is non-zero only on its own group's
// blocks, and joins and copies pass over those alone. Any numbering gives the same races:
// slots only name actors (an epoch is compared with the same actor's entry).
//
// Deterministic: slots depend only on the topology and the order lanes are opened.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::model {

class ClockSlots {
 public:
  static constexpr std::uint32_t block = 64;

  // Slots of `devices` x `cores_per_device` cores, by global core id (device-major).
  ClockSlots(int devices, int cores_per_device)
      : cores_per_device_(cores_per_device), next_(static_cast<std::size_t>(cores_per_device), 0) {
    core_slots_.resize(static_cast<std::size_t>(devices) * static_cast<std::size_t>(cores_per_device));
    for (int group = 0; group < cores_per_device; ++group)
      for (int device = 0; device < devices; ++device)
        core_slots_[static_cast<std::size_t>(device * cores_per_device + group)] = take(group);
  }

  std::uint32_t core(int global_core) const { return core_slots_[static_cast<std::size_t>(global_core)]; }
  // The slot of a lane opened by `global_core`: in that core's group.
  std::uint32_t open_lane(int global_core) { return take(global_core % cores_per_device_); }

 private:
  std::uint32_t take(int group) {
    std::uint32_t& next = next_[static_cast<std::size_t>(group)];
    if (next % block == 0) next = block * blocks_++;  // the group's block is full (or it has none)
    return next++;
  }

  int cores_per_device_;
  std::vector<std::uint32_t> core_slots_;  // per global core
  std::vector<std::uint32_t> next_;        // per group: its next free slot (a multiple of 64: none)
  std::uint32_t blocks_ = 0;               // blocks dealt
};

}  // namespace weft::model
