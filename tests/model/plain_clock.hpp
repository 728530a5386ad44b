#pragma once
// A plain vector clock (a vector of entries, copied whole): the reference the shared clocks of
// model/vector_clock.hpp and model/tree_clock.hpp are tested against.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace weft::testing {

struct PlainClock {
  std::vector<std::uint32_t> entries;
  std::uint32_t get(std::size_t slot) const { return slot < entries.size() ? entries[slot] : 0; }
  void set(std::size_t slot, std::uint32_t value) {
    if (slot >= entries.size()) entries.resize(slot + 1, 0);
    entries[slot] = value;
  }
  void join(const PlainClock& other) {
    for (std::size_t slot = 0; slot < other.entries.size(); ++slot) set(slot, std::max(get(slot), other.get(slot)));
  }
  // One past the highest non-zero entry.
  std::size_t size() const {
    std::size_t size = entries.size();
    while (size > 0 && entries[size - 1] == 0) --size;
    return size;
  }
};

}  // namespace weft::testing
