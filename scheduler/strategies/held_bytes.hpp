#pragma once
// The heap bytes a container holds, for the explorers' memory budgets (Explorer::memory_bytes,
// SharedWakeupTree's count, the race analysis they keep): a vector's capacity, and for a vector
// of vectors each inner one's too. A std::map node is counted as its value plus `map_node_bytes`
// of links, which is libstdc++'s on 64-bit hosts; the allocator's own rounding is not counted, so
// the figures are a close floor.

#include <cstddef>
#include <vector>

namespace weft::scheduler {

inline constexpr std::size_t map_node_bytes = 32;  // a red-black node's colour, parent, left and right

template <class T>
std::size_t held_bytes(const std::vector<T>& values) {
  return values.capacity() * sizeof(T);
}

template <class T>
std::size_t held_bytes(const std::vector<std::vector<T>>& values) {
  std::size_t bytes = values.capacity() * sizeof(std::vector<T>);
  for (const std::vector<T>& inner : values) bytes += held_bytes(inner);
  return bytes;
}

}  // namespace weft::scheduler
