#pragma once
// scope_end: the end of a run_scoped scope (Pallas' run_scoped): the vmem and smem buffers the
// core allocated in it are freed, their ids and capacity reused by its later allocations
// (model/memory.hpp). Visible, since a DMA still in flight into or out of one of them is a
// dma_in_flight, and one that landed unawaited races with the end (model/machine.hpp
// close_scope). Never blocks. Its footprint writes the existence and the whole contents of each
// freed buffer: every DMA into or out of one, and its reallocation, depend on it.

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct ScopeEnd {
  static constexpr std::string_view verb = "ends a scope";
  const model::Buffer* first = nullptr;  // the first buffer freed (for the trace), or none
  std::int64_t freed = 0;                // how many

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    const auto scoped = machine.memory().innermost_scope(site.core);
    first = scoped.empty() ? nullptr : scoped.front();
    freed = static_cast<std::int64_t>(scoped.size());
    return machine.close_scope(site.core, site.line, failure);
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    add_freed_scope(machine, site.core, footprint);
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    TraceEvent event = access_event(TraceEvent::Kind::scope_end, first,
                                    first ? model::Rect::whole(first->info().shape) : model::Rect{});
    event.amount = freed;
    return event;
  }
};

}  // namespace weft::sim::ops
