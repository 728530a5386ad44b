#include "model/rect.hpp"

#include <algorithm>
#include <stdexcept>

namespace weft::model {

Shape::Shape(std::initializer_list<std::int64_t> extents)
    : rank(std::min(static_cast<int>(extents.size()), max_rank)), asked_rank(static_cast<int>(extents.size())) {
  std::copy(extents.begin(), extents.begin() + rank, dims.begin());
}

std::string shape_problem(const Shape& shape) {
  if (shape.asked_rank > max_rank)
    return "a shape of " + std::to_string(shape.asked_rank) + " dimensions (at most " + std::to_string(max_rank) + ")";
  std::int64_t elements = 1;
  for (int d = 0; d < shape.rank; ++d) {
    if (shape.dims[d] < 0)
      return "extent " + std::to_string(shape.dims[d]) + " of dimension " + std::to_string(d) + " is negative";
    if (shape.dims[d] > max_elements || (elements *= std::max<std::int64_t>(shape.dims[d], 1)) > max_elements)
      return "more than 2^40 elements";
  }
  return {};
}

bool operator==(const Shape& a, const Shape& b) {
  return a.rank == b.rank && std::equal(a.dims.begin(), a.dims.begin() + a.rank, b.dims.begin());
}

bool operator==(const Rect& a, const Rect& b) {
  return a.rank == b.rank && std::equal(a.start.begin(), a.start.begin() + a.rank, b.start.begin()) &&
         std::equal(a.size.begin(), a.size.begin() + a.rank, b.size.begin());
}

std::string to_string(const Shape& shape) {
  std::string text = "[";
  for (int d = 0; d < shape.rank; ++d) text += (d ? ", " : "") + std::to_string(shape.dims[d]);
  return text + (shape.asked_rank > shape.rank ? ", ...]" : "]");
}

Rect Rect::whole(const Shape& shape) {
  Rect rect;
  rect.rank = shape.rank;
  for (int d = 0; d < shape.rank; ++d) rect.size[d] = shape.dims[d];
  return rect;
}

Rect Rect::clipped_to(const Shape& shape) const {
  Rect result = *this;
  for (int d = 0; d < rank; ++d) {
    const std::int64_t lo = std::clamp<std::int64_t>(start[d], 0, shape.dims[d]);
    const std::int64_t hi = std::clamp<std::int64_t>(start[d] + size[d], 0, shape.dims[d]);
    result.start[d] = lo;
    result.size[d] = std::max<std::int64_t>(hi - lo, 0);
  }
  return result;
}

std::string to_string(const Rect& rect) {
  std::string text = "[";
  for (int d = 0; d < rect.rank; ++d) {
    text += d ? ", " : "";
    text += std::to_string(rect.start[d]) + ":" + std::to_string(rect.start[d] + rect.size[d]);
  }
  return text + "]";
}

}  // namespace weft::model
