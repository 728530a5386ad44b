#pragma once
// A DMA phase: not a core's operation but an actor of its own (scheduler/actor.hpp). A DMA runs
// in two phases, read (snapshot the source, signal the send semaphore on the starter) and
// write (write the target, signal the receive semaphore on the destination), each picked by
// the scheduler (model/dma.hpp). Under dma.chunk_bytes the write phase is several steps of the
// same actor, one per chunk (model/dma_chunks.hpp): what describes a write step (its footprint,
// its trace event) describes its chunk. Every step also observes the count of running cores: a
// phase still pending when the last core finishes is a DMA in flight.

#include "model/dma.hpp"
#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

// The touches of `phase` of DMA `id`, which is in flight (without the running-cores observation);
// for the write phase, of its next chunk.
void add_phase_touches(int id, model::DmaPhase phase, const model::Machine& machine, FootprintRules rules,
                       scheduler::Footprint& footprint);

struct DmaPhase {
  int dma;  // the DMA's id

  bool apply(model::Machine& machine, model::Failure& failure) const { return machine.run_dma_phase(dma, failure); }
  void footprint(const model::Machine& machine, FootprintRules rules, scheduler::Footprint& footprint) const {
    add_phase_touches(dma, machine.dmas()[dma].next, machine, rules, footprint);
    footprint.touches.push_back(running_cores_observed());
  }
  // The trace event of `phase`, which just ran: for the write phase, of the chunk that landed.
  // Made before any other DMA starts (the DMA's in-flight part is read: model/dma_records.hpp).
  TraceEvent event(const model::Machine& machine, model::DmaPhase phase) const;
  // The same for the whole copy, whatever has landed (a DMA start's event is made from it).
  TraceEvent copy_event(const model::Machine& machine, model::DmaPhase phase) const;
};

}  // namespace weft::sim::ops
