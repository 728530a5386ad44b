#pragma once
// load: a core copies a rectangle of a buffer into its tile, as one atomic visible operation.
// Never blocks. Out-of-bounds reads follow memory.out_of_bounds_reads (model/machine.cpp). A
// polling loop may repeat it (the spin reduction).

#include <cstddef>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Load {
  static constexpr std::string_view verb = "loads";
  const model::Slice& slice;
  std::byte* out;

  model::SliceAccess touches() const { return {slice, {&slice.rect, 1}, false, false, verb}; }
  void move() const { slice.buffer->read(slice.rect, out); }
  PollTarget polls(const OpSite& site) const { return {slice.buffer, -1, -1, slice.rect, site.line}; }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::load, slice.buffer, slice.rect);
  }
};

}  // namespace weft::sim::ops
