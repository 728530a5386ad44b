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
  const model::Slice& slice;
  std::span<const model::Rect> parts;  // the kept elements
  const std::byte* in;                 // laid out as slice.rect

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) const {
    return machine.store(site.core, slice, parts, in, site.line, failure);
  }
  void footprint(const model::Machine&, const OpSite&, FootprintRules, scheduler::Footprint& footprint) const {
    for (const model::Rect& part : parts) footprint.touches.push_back(access(slice, part, scheduler::TouchMode::write));
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return masked_event(TraceEvent::Kind::store, slice, parts);
  }
};

}  // namespace weft::sim::ops
