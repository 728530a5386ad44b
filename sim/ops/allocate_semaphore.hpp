#pragma once
// allocate_semaphore: a core allocates one regular or DMA semaphore, or an array of them, as one
// visible operation. Visible (ids come from a per-core counter, SPMD-symmetric, and every core's
// allocation of one id must agree on its kind); never blocks; touches nothing another actor
// touches. An array takes consecutive ids.

#include <span>

#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct AllocateSemaphore {
  static constexpr std::string_view verb = "allocates semaphores";
  model::SemaphoreKind kind;
  std::string_view name;  // the kernel's name for them, or empty (model/naming.hpp)
  std::span<int> made;    // the result, one per semaphore: its index in the machine's semaphore table

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) const {
    for (int& index : made) {
      index = machine.semaphores().allocate(site.core, machine.launches().of(site.global), kind, failure,
                                            {name, site.line});
      if (index < 0) {
        failure = located(std::move(failure), site.line);
        return false;
      }
    }
    return true;
  }
  void footprint(const model::Machine&, const OpSite&, FootprintRules, scheduler::Footprint&) const {}
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    TraceEvent event = cell_event(TraceEvent::Kind::allocate, machine, made.front(), site.global,
                                  static_cast<std::int64_t>(made.size()));
    event.name = name;
    return event;
  }
};

}  // namespace weft::sim::ops
