#pragma once
// Where a block of a blocked operand lies (the Pallas guide "Grids and BlockSpecs"): block index
// b along a dimension of block extent e covers elements [b * e, (b + 1) * e) of the array (along a
// `squeezed` dimension, element b; along an element-indexed one, [b, b + e)). A block may overhang the array's end (the
// last block when e does not divide the array's extent, or a block larger than the array) as long as one of its
// elements is inside: that part is what the pipeline's DMAs copy, and the rest of the block is
// padding, which the slot holds but no DMA reads or writes.
//
// Invariants of a placement: `array` and `slot` have the same view (the block's shape clipped at
// the array's edge, squeezed dimensions dropped); `slot`'s rectangle starts at the slot's origin;
// the padding rectangles are disjoint, inside the slot, and with `slot`'s rectangle they cover the
// whole slot. A block with no element inside the array (a negative index, or one past the last
// block) is placed whole and unclipped, so that its DMA is out of bounds and says so.

#include <array>
#include <cstdint>
#include <vector>

#include "model/dma.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::sim::pallas {

struct BlockPlacement {
  model::Slice array;                                  // the block's elements inside the array
  model::Slice slot;                                   // the same elements in the slot
  int padding_count = 0;                               // how many rectangles of `padding` there are; 0: the block fits
  std::array<model::Rect, model::max_rank> padding{};  // the slot's elements outside the array

  bool ragged() const { return padding_count > 0; }
};

// The placement of `block` (indices, one per dimension of `array`; first elements along the
// spec's `element` dimensions) of the spec's blocks (`squeezed` allowed) over `array`, in `slot`
// (a buffer of the block's shape with squeezed dimensions dropped).
BlockPlacement place_block(const model::Slice& array, const BlockSpec& spec, const Block& block, model::Buffer* slot);

// Whether some block of the spec may overhang `array` (an extent that does not divide the
// array's, or a dimension indexed by element).
bool can_overhang(const model::Slice& array, const BlockSpec& spec);

}  // namespace weft::sim::pallas
