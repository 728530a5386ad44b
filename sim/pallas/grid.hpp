#pragma once
// A Pallas grid: up to four nested loops, the first dimension outermost (row-major), each
// `arbitrary` (run in order on one core) or `parallel` (split across the device's cores, as a
// megacore splits it).
//
// The split rule (as Pallas' TPU interpret mode does it): the parallel dimensions must come
// first; the P points of the parallel subgrid (the product of their sizes) are dealt out in
// row-major order in contiguous runs of ceil(P / cores) points, core 0 first, and each core runs
// every point of the arbitrary dimensions under each of its parallel points, in row-major
// order. So core c runs the grid steps [c * k * A, min((c + 1) * k, P) * A), where k =
// ceil(P / cores) and A is the product of the arbitrary sizes; cores past the last run nothing.
// (Interpret mode also permutes the points along each parallel dimension by a random seed; weft
// keeps them in order: the scheduler, not the split, is where the interleavings come from.)

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::sim::pallas {

enum class Semantics { arbitrary, parallel };

inline constexpr int max_grid_rank = 4;

// A point of the grid: its index along each dimension.
struct GridIndex {
  int rank = 0;
  std::array<std::int64_t, max_grid_rank> at{};
  std::int64_t operator[](int axis) const { return at[static_cast<std::size_t>(axis)]; }
  friend bool operator==(const GridIndex&, const GridIndex&) = default;
};
std::string to_string(const GridIndex& index);  // "(1, 0, 3)"

class Grid {
 public:
  // Throws std::invalid_argument for more than four dimensions, a negative size, semantics of
  // another length than the grid, or a parallel dimension after an arbitrary one.
  Grid(std::vector<std::int64_t> sizes, std::vector<Semantics> semantics);

  int rank() const { return static_cast<int>(sizes_.size()); }
  std::int64_t size(int axis) const { return sizes_[static_cast<std::size_t>(axis)]; }
  std::int64_t steps() const { return steps_; }
  bool parallel(int axis) const { return semantics_[static_cast<std::size_t>(axis)] == Semantics::parallel; }
  // The grid point of a row-major step number.
  GridIndex point(std::int64_t step) const;
  // The steps core `core` of `cores` runs, by the split rule above: [first, last).
  std::pair<std::int64_t, std::int64_t> steps_of(int core, int cores) const;

 private:
  std::vector<std::int64_t> sizes_;
  std::vector<Semantics> semantics_;
  std::int64_t steps_ = 1;
  std::int64_t parallel_points_ = 1;
};

}  // namespace weft::sim::pallas
