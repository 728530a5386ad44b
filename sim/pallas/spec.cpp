#include "sim/pallas/spec.hpp"

#include <stdexcept>

namespace weft::sim::pallas {

Block::Block(std::initializer_list<std::int64_t> indices) {
  if (indices.size() > static_cast<std::size_t>(max_grid_rank))
    throw std::invalid_argument("block indices of " + std::to_string(indices.size()) + " dimensions (at most 4)");
  rank = static_cast<int>(indices.size());
  std::size_t axis = 0;
  for (const std::int64_t index : indices) at[axis++] = index;
}

std::int32_t ScalarPrefetch::operator()(int array, std::int64_t i) const {
  if (array < 0 || static_cast<std::size_t>(array) >= arrays_.size())
    throw std::out_of_range("scalar prefetch array " + std::to_string(array) + " does not exist (there are " +
                            std::to_string(arrays_.size()) + ")");
  const auto& values = arrays_[static_cast<std::size_t>(array)];
  if (i < 0 || static_cast<std::size_t>(i) >= values.size())
    throw std::out_of_range("scalar prefetch array " + std::to_string(array) + " has no element " + std::to_string(i) +
                            " (it has " + std::to_string(values.size()) + ")");
  return values[static_cast<std::size_t>(i)];
}

std::int64_t ScalarPrefetch::size(int array) const {
  return array >= 0 && static_cast<std::size_t>(array) < arrays_.size()
             ? static_cast<std::int64_t>(arrays_[static_cast<std::size_t>(array)].size())
             : 0;
}

}  // namespace weft::sim::pallas
