#pragma once
// masked_load: a core reads the elements of a rectangle its mask keeps into its tile (the
// kernel fills the others with its `other` value), as one atomic visible operation. Never
// blocks. Only the kept elements are touched: the mask's rectangles (model/mask.hpp) are its
// race accesses and its footprint, and only they follow memory.out_of_bounds_reads.

#include <cstddef>
#include <span>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct MaskedLoad {
  static constexpr std::string_view verb = "loads with a mask";
  const model::Slice& slice;
  std::span<const model::Rect> parts;  // the kept elements
  std::byte* out;                      // laid out as slice.rect

  model::SliceAccess touches() const { return {slice, parts, false, true, "loads"}; }
  void move() const {
    for (const model::Rect& part : parts) slice.buffer->read_part(slice.rect, part, out);
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return masked_event(TraceEvent::Kind::load, slice, parts);
  }
};

}  // namespace weft::sim::ops
