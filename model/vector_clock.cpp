#include "model/vector_clock.hpp"

namespace weft::model {

void VectorClock::join(const VectorClock& other) {
  if (other.entries_.size() > entries_.size()) entries_.resize(other.entries_.size(), 0);
  std::uint32_t* mine = entries_.data();
  const std::uint32_t* theirs = other.entries_.data();
  for (std::size_t i = 0, n = other.entries_.size(); i < n; ++i) mine[i] = mine[i] < theirs[i] ? theirs[i] : mine[i];
}

}  // namespace weft::model
