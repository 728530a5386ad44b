#pragma once
// Shapes and rectangles of buffer elements (up to 4 dimensions, stride 1). A rectangle is what
// one load, store or DMA phase touches; two accesses conflict only if their rectangles overlap.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace weft::model {

inline constexpr int max_rank = 4;

struct Shape {
  int rank = 0;
  // The extents a kernel asked for, when more than max_rank: only the first max_rank are kept,
  // and shape_problem() names the shape as wrong, so that the API call that took it reports it
  // with its line (a constructor that threw could not know the line).
  int asked_rank = 0;
  std::array<std::int64_t, max_rank> dims{};

  Shape() = default;
  Shape(std::initializer_list<std::int64_t> extents);
  std::int64_t volume() const {
    std::int64_t result = 1;
    for (int d = 0; d < rank; ++d) result *= dims[d];
    return result;
  }
  friend bool operator==(const Shape& a, const Shape& b);  // compares the first `rank` extents
};

std::string to_string(const Shape& shape);  // "[8, 128]"

// Why a shape cannot be a buffer's (too many dimensions, a negative extent, too many elements), or
// empty if it can.
std::string shape_problem(const Shape& shape);
inline constexpr std::int64_t max_elements = std::int64_t{1} << 40;

struct Rect {
  int rank = 0;
  std::array<std::int64_t, max_rank> start{};
  std::array<std::int64_t, max_rank> size{};

  static Rect whole(const Shape& shape);
  // These four run at every access (inline: the checks of a step are short loops).
  std::int64_t volume() const {
    std::int64_t result = 1;
    for (int d = 0; d < rank; ++d) result *= size[d] > 0 ? size[d] : 0;
    return result;
  }
  // False if either is empty.
  bool overlaps(const Rect& other) const {
    if (rank != other.rank || volume() == 0 || other.volume() == 0) return false;
    for (int d = 0; d < rank; ++d)
      if (start[d] + size[d] <= other.start[d] || other.start[d] + other.size[d] <= start[d]) return false;
    return true;
  }
  // Every element within bounds.
  bool inside(const Shape& shape) const {
    if (rank != shape.rank) return false;
    for (int d = 0; d < rank; ++d)
      if (start[d] < 0 || size[d] < 0 || start[d] + size[d] > shape.dims[d]) return false;
    return true;
  }
  // Every element also in `outer`.
  bool inside_of(const Rect& outer) const {
    if (rank != outer.rank) return false;
    for (int d = 0; d < rank; ++d)
      if (start[d] < outer.start[d] || start[d] + size[d] > outer.start[d] + outer.size[d]) return false;
    return true;
  }
  Rect clipped_to(const Shape& shape) const;  // the in-bounds part (possibly empty)
  friend bool operator==(const Rect& a, const Rect& b);
};

std::string to_string(const Rect& rect);  // "[0:8, 3:4]" (start:end per dimension)

}  // namespace weft::model
