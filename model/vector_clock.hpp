#pragma once
// Vector clocks over actor slots (cores first, then DMA lanes: model/race_detector.hpp), and epochs: one actor's
// clock value, which is all an access record needs (FastTrack). A clock grows as DMAs appear;
// a missing entry reads as 0.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace weft::model {

struct Epoch {
  std::uint32_t slot = 0;
  std::uint32_t clock = 0;
};

class VectorClock {
 public:
  std::uint32_t get(std::size_t slot) const { return slot < entries_.size() ? entries_[slot] : 0; }
  void set(std::size_t slot, std::uint32_t value) {
    if (slot >= entries_.size()) entries_.resize(slot + 1, 0);
    entries_[slot] = value;
  }
  // Becomes a copy of `other`, in the storage it already has.
  void assign(const VectorClock& other) { entries_.assign(other.entries_.begin(), other.entries_.end()); }
  void tick(std::size_t slot) { set(slot, get(slot) + 1); }
  // The entry-wise maximum; the one loop race detection spends most of its time in on large
  // machines (vector_clock.cpp is compiled for vectorization).
  void join(const VectorClock& other);
  Epoch epoch(std::size_t slot) const { return {static_cast<std::uint32_t>(slot), get(slot)}; }
  // Whether the event of `epoch` happens before (or is) the present of this clock.
  bool knows(Epoch epoch) const { return epoch.clock <= get(epoch.slot); }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<std::uint32_t> entries_;
};

}  // namespace weft::model
