#include "sim/pallas/grid.hpp"

#include <stdexcept>

namespace weft::sim::pallas {

std::string to_string(const GridIndex& index) {
  std::string text = "(";
  for (int axis = 0; axis < index.rank; ++axis) text += (axis > 0 ? ", " : "") + std::to_string(index[axis]);
  return text + ")";
}

Grid::Grid(std::vector<std::int64_t> sizes, std::vector<Semantics> semantics)
    : sizes_(std::move(sizes)), semantics_(std::move(semantics)) {
  if (sizes_.size() > static_cast<std::size_t>(max_grid_rank))
    throw std::invalid_argument("a grid of " + std::to_string(sizes_.size()) + " dimensions (at most " +
                                std::to_string(max_grid_rank) + ")");
  if (semantics_.empty()) semantics_.assign(sizes_.size(), Semantics::arbitrary);
  if (semantics_.size() != sizes_.size())
    throw std::invalid_argument("dimension semantics for " + std::to_string(semantics_.size()) +
                                " dimensions of a grid of " + std::to_string(sizes_.size()));
  for (std::size_t axis = 0; axis < sizes_.size(); ++axis) {
    if (sizes_[axis] < 0)
      throw std::invalid_argument("grid dimension " + std::to_string(axis) + " has the negative size " +
                                  std::to_string(sizes_[axis]));
    if (axis > 0 && semantics_[axis] == Semantics::parallel && semantics_[axis - 1] == Semantics::arbitrary)
      throw std::invalid_argument("grid dimension " + std::to_string(axis) +
                                  " is parallel after an arbitrary one (parallel dimensions come first)");
    steps_ *= sizes_[axis];
    if (semantics_[axis] == Semantics::parallel) parallel_points_ *= sizes_[axis];
  }
}

GridIndex Grid::point(std::int64_t step) const {
  GridIndex index;
  index.rank = rank();
  for (int axis = rank() - 1; axis >= 0; --axis) {
    const std::int64_t size = sizes_[static_cast<std::size_t>(axis)];
    index.at[static_cast<std::size_t>(axis)] = step % size;
    step /= size;
  }
  return index;
}

std::pair<std::int64_t, std::int64_t> Grid::steps_of(int core, int cores) const {
  if (parallel_points_ == 1 || cores <= 1 || steps_ == 0)
    return core == 0 ? std::pair{std::int64_t{0}, steps_} : std::pair{steps_, steps_};
  const std::int64_t per_core = (parallel_points_ + cores - 1) / cores;
  const std::int64_t inner = steps_ / parallel_points_;
  const std::int64_t first = std::min(parallel_points_, core * per_core);
  const std::int64_t last = std::min(parallel_points_, (core + 1) * per_core);
  return {first * inner, last * inner};
}

}  // namespace weft::sim::pallas
