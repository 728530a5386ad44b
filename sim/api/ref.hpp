#pragma once
// Refs: a typed view of a rectangle of a buffer, like a Pallas ref. Indexing drops a dimension
// (`out[slot]`), ranges keep it (`x.at({ds(0, 8), all})`). Making refs is free and checks
// nothing; bounds are checked when a load, store or DMA touches the elements.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <variant>

#include <Eigen/Core>

#include "model/dma.hpp"

namespace weft::sim {

// Kernel arithmetic works on tiles: a load of a ref of shape [d0, ..., dk] gives a row-major
// array of (d0 * ... * dk-1) rows and dk columns; a scalar (rank 0) is 1 x 1.
template <class T>
using Tile = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// A mask of a masked load, store or swap: one entry per element of the ref's tile, true where
// the element is accessed.
using Mask = Tile<bool>;

struct Range {
  std::int64_t start = 0;
  std::int64_t size = 0;
};
// `ds(start, size)`: a range of `size` elements from `start` (Pallas' pl.ds).
inline Range ds(std::int64_t start, std::int64_t size) { return {start, size}; }
struct All {};
inline constexpr All all{};
using Index = std::variant<std::int64_t, Range, All>;

template <class T>
class Ref {
 public:
  Ref() = default;
  // Made by the kernel API (Core::hbm, Core::vmem, ...), which notes the launch it belongs to.
  explicit Ref(model::Buffer* buffer, std::uint64_t launch = 0) : launch_(launch) {
    slice_.buffer = buffer;
    slice_.rect = model::Rect::whole(buffer->info().shape);
    slice_.view = buffer->info().shape;
    for (int d = 0; d < model::max_rank; ++d) view_dim_[d] = static_cast<std::int8_t>(d);
  }

  const model::Shape& shape() const { return slice_.view; }
  int rank() const { return slice_.view.rank; }
  const model::Slice& slice() const { return slice_; }
  std::uint64_t launch() const { return launch_; }
  int buffer_id() const { return slice_.buffer->info().id; }

  // A ref of the whole buffer narrowed to `rect` (of the buffer's rank; every dimension kept).
  Ref window(const model::Rect& rect) const {
    Ref result(slice_.buffer, launch_);
    result.slice_.rect = rect;
    result.slice_.view.rank = rect.rank;
    for (int d = 0; d < rect.rank; ++d) result.slice_.view.dims[d] = rect.size[d];
    return result;
  }

  // Indexes the first dimension, dropping it.
  Ref operator[](std::int64_t index) const { return at({index}); }
  // One index per leading dimension (the rest are kept whole).
  Ref at(std::initializer_list<Index> indices) const {
    if (static_cast<int>(indices.size()) > rank())
      throw std::invalid_argument("a ref of rank " + std::to_string(rank()) + " indexed with " +
                                  std::to_string(indices.size()) + " indices");
    Ref result = *this;
    result.slice_.view.rank = 0;
    int view = 0;
    for (const Index& index : indices) narrow(result, view++, index);
    for (; view < rank(); ++view) narrow(result, view, all);
    return result;
  }

 private:
  void narrow(Ref& result, int view, const Index& index) const {
    const int dim = view_dim_[view];
    if (const auto* at = std::get_if<std::int64_t>(&index)) {
      result.slice_.rect.start[dim] += *at;
      result.slice_.rect.size[dim] = 1;
      return;
    }
    if (const auto* range = std::get_if<Range>(&index)) {
      result.slice_.rect.start[dim] += range->start;
      result.slice_.rect.size[dim] = range->size;
    }
    auto& out = result.slice_.view;
    result.view_dim_[out.rank] = static_cast<std::int8_t>(dim);
    out.dims[out.rank++] = result.slice_.rect.size[dim];
  }

  model::Slice slice_;
  std::array<std::int8_t, model::max_rank> view_dim_{};
  std::uint64_t launch_ = 0;  // the execution whose buffer it names
};

// The tile shape (rows, columns) a ref's elements load into.
inline std::pair<std::int64_t, std::int64_t> tile_shape(const model::Shape& view) {
  if (view.rank == 0) return {1, 1};
  const std::int64_t cols = view.dims[view.rank - 1];
  return {cols == 0 ? 0 : view.volume() / cols, cols};
}

}  // namespace weft::sim
