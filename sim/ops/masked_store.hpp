#pragma once
// masked_store: a core writes the elements of its tile that its mask keeps into a rectangle of
// a buffer, as one atomic visible operation. Never blocks. Only the kept elements are touched
// (model/mask.hpp): they are its race accesses and footprint, and only they must be in bounds;
// one outside is an out_of_bounds failure, and then nothing is written.

#include <cstddef>
#include <span>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct MaskedStore {
  static constexpr std::string_view verb = "stores with a mask";
  const model::Slice& slice;
  std::span<const model::Rect> parts;  // the kept elements
  const std::byte* in;                 // laid out as slice.rect

  model::SliceAccess touches() const { return {slice, parts, true, true, "stores"}; }
  void move() const {
    for (const model::Rect& part : parts) slice.buffer->write_part(slice.rect, part, in);
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return masked_event(TraceEvent::Kind::store, slice, parts);
  }
};

}  // namespace weft::sim::ops
