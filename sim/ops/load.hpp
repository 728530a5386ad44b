#pragma once
// load: a core copies a rectangle of a buffer into its tile, as one atomic visible operation.
// Never blocks. Out-of-bounds reads follow memory.out_of_bounds_reads (model/machine.cpp).

#include <cstddef>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Load {
  const model::Slice& slice;
  std::byte* out;

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) const {
    return machine.load(site.core, slice, out, site.line, failure);
  }
  void footprint(const model::Machine&, const OpSite&, FootprintRules, scheduler::Footprint& footprint) const {
    footprint.touches.push_back(access(slice, scheduler::TouchMode::read));
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::load, slice.buffer, slice.rect);
  }
};

}  // namespace weft::sim::ops
