#pragma once
// dma_start: a core starts copying `source` into the buffer `target` names on the destination
// core (its own, another core of its device, or a core of another device), overwriting or adding
// to what is there. Never blocks. What happens next is the engine's DMA policy (dma.execution):
// the two phases become actors of their own (async, on_wait), or run inside the start (eager,
// every chunk of the write phase too). So the footprint of an eager start is that of both whole
// phases; an async start only reads the existence of the target buffer and creates the phases.

#include <cstdint>

#include "sim/ops/dma_phase.hpp"
#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct DmaStart {
  static constexpr std::string_view verb = "starts a DMA";
  static constexpr bool starts_dmas = true;
  model::DmaRequest request;
  int dma = -1;  // the result: the DMA's id

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    dma = machine.start_dma(site.core, request, site.line, failure);
    return dma >= 0;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules rules,
                 scheduler::Footprint& footprint) const;
  TraceEvent event(const model::Machine& machine, const OpSite&) const {
    TraceEvent event = DmaPhase{dma}.copy_event(machine, model::DmaPhase::write);
    event.kind = TraceEvent::Kind::dma_start;
    event.recv_semaphore_id = event.semaphore_id;
    event.semaphore_id = -1;
    return event;
  }
};

}  // namespace weft::sim::ops
