#include "sim/ops/dma_phase.hpp"

#include "model/dma_chunks.hpp"

namespace weft::sim::ops {

void add_phase_touches(int id, model::DmaPhase phase, const model::Machine& machine, FootprintRules rules,
                       scheduler::Footprint& footprint) {
  const model::Dma& dma = machine.dmas()[id];
  const model::DmaFlight& flight = machine.dmas().flight(id);
  const auto& topology = machine.topology();
  add_launch_read(machine, topology.global(phase == model::DmaPhase::read ? dma.starter : dma.destination), footprint);
  if (phase == model::DmaPhase::read) {
    footprint.touches.push_back(access(flight.source, scheduler::TouchMode::read));
    if (dma.send_semaphore >= 0)
      footprint.touches.push_back(cell(machine, dma.send_semaphore, topology.global(dma.starter),
                                       scheduler::TouchMode::add, dma.bytes, rules.ordered_signals));
  } else {
    // The chunk about to land: its rows of the target, its bytes on the receive cell.
    const model::DmaChunk chunk = model::next_chunk(dma, flight, machine.spec().dma_chunk_bytes);
    footprint.touches.push_back(access(flight.target, chunk.rect, scheduler::TouchMode::write));
    footprint.touches.push_back(cell(machine, dma.recv_semaphore, topology.global(dma.destination),
                                     scheduler::TouchMode::add, chunk.bytes, rules.ordered_signals));
  }
}

TraceEvent DmaPhase::copy_event(const model::Machine& machine, model::DmaPhase phase) const {
  using scheduler::Actor;
  const model::Dma& record = machine.dmas()[dma];
  const model::DmaFlight& flight = machine.dmas().flight(dma);
  const auto& topology = machine.topology();
  TraceEvent event;
  event.dma = dma;
  event.line = record.line;
  event.amount = record.bytes;
  const bool read = phase == model::DmaPhase::read;
  event.kind = read ? TraceEvent::Kind::dma_read : TraceEvent::Kind::dma_write;
  event.actor = {read ? Actor::Kind::dma_read : Actor::Kind::dma_write, static_cast<std::uint32_t>(dma)};
  event.buffer = flight.source.buffer;
  event.rect = flight.source.rect;
  event.target_buffer = flight.target.buffer;
  event.target_rect = flight.target.rect;
  if (const model::DmaOrigin* origin = machine.dmas().origin(dma)) event.origin = *origin;
  const int semaphore = read ? record.send_semaphore : record.recv_semaphore;
  event.target_core = topology.global(read ? record.starter : record.destination);
  if (semaphore >= 0) {
    event.semaphore_id = machine.semaphores().id(semaphore);
    event.count = machine.semaphores().count(semaphore, event.target_core);
  }
  return event;
}

TraceEvent DmaPhase::event(const model::Machine& machine, model::DmaPhase phase) const {
  TraceEvent event = copy_event(machine, phase);
  if (phase == model::DmaPhase::write) {  // the chunk that just landed
    const model::DmaChunk chunk =
        model::landed_chunk(machine.dmas()[dma], machine.dmas().flight(dma), machine.spec().dma_chunk_bytes);
    event.amount = chunk.bytes;
    event.target_rect = chunk.rect;
  }
  return event;
}

}  // namespace weft::sim::ops
