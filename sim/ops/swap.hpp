#pragma once
// swap: a core atomically exchanges its tile with a rectangle of a buffer, optionally under a
// mask (the seed's swap_buffer_content): the kept elements' old values come back, the others
// come back as the tile had them, and only the kept elements are written. One atomic visible
// operation that never blocks; its race accesses and footprint are writes of the kept
// elements' rectangles (model/mask.hpp, a single one without a mask), which must all be in
// bounds (else out_of_bounds, and nothing is written).

#include <cstddef>
#include <span>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Swap {
  static constexpr std::string_view verb = "swaps";
  const model::Slice& slice;
  std::span<const model::Rect> parts;  // the kept elements
  const std::byte* in;                 // the new values, laid out as slice.rect
  std::byte* out;                      // the old ones (already holding `in`'s, for what is not kept)

  model::SliceAccess touches() const { return {slice, parts, true, true, verb}; }
  void move() const {
    for (const model::Rect& part : parts) {
      slice.buffer->read_part(slice.rect, part, out);
      slice.buffer->write_part(slice.rect, part, in);
    }
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return masked_event(TraceEvent::Kind::swap, slice, parts);
  }
};

}  // namespace weft::sim::ops
