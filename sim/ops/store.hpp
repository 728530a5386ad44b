#pragma once
// store: a core writes its tile into a rectangle of a buffer, as one atomic visible operation.
// Never blocks; an out-of-bounds store writes nothing and fails (out_of_bounds).

#include <cstddef>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Store {
  const model::Slice& slice;
  const std::byte* in;

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) const {
    return machine.store(site.core, slice, in, site.line, failure);
  }
  void footprint(const model::Machine&, const OpSite&, FootprintRules, scheduler::Footprint& footprint) const {
    footprint.touches.push_back(access(slice, scheduler::TouchMode::write));
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::store, slice.buffer, slice.rect);
  }
};

}  // namespace weft::sim::ops
