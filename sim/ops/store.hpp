#pragma once
// store: a core writes its tile into a rectangle of a buffer, as one atomic visible operation.
// Never blocks; an out-of-bounds store writes nothing and fails (out_of_bounds).

#include <cstddef>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Store {
  static constexpr std::string_view verb = "stores";
  const model::Slice& slice;
  const std::byte* in;

  model::SliceAccess touches() const { return {slice, {&slice.rect, 1}, true, false, verb}; }
  void move() const { slice.buffer->write(slice.rect, in); }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::store, slice.buffer, slice.rect);
  }
};

}  // namespace weft::sim::ops
