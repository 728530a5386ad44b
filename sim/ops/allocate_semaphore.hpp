#pragma once
// allocate_semaphore: a core allocates a regular or DMA semaphore. Visible (ids come from a
// per-core counter, SPMD-symmetric, and every core's allocation of one id must agree on its
// kind); never blocks; touches nothing another actor touches.

#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct AllocateSemaphore {
  model::SemaphoreKind kind;
  std::string_view name;  // the kernel's name for it, or empty (model/naming.hpp)
  int made = -1;          // the result: the index in the machine's semaphore table

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    made = machine.semaphores().allocate(site.core, kind, failure, {name, site.line});
    if (made >= 0) return true;
    failure = located(std::move(failure), site.line);
    return false;
  }
  void footprint(const model::Machine&, const OpSite&, FootprintRules, scheduler::Footprint&) const {}
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    TraceEvent event = cell_event(TraceEvent::Kind::allocate, machine, made, site.global, 0);
    event.name = name;
    return event;
  }
};

}  // namespace weft::sim::ops
