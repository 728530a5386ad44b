#include "sim/ops/dma_start.hpp"

namespace weft::sim::ops {

void DmaStart::footprint(const model::Machine& machine, const OpSite& site, FootprintRules rules,
                         scheduler::Footprint& footprint) const {
  using scheduler::TouchMode;
  const auto& info = request.target.buffer->info();
  const model::CoreId destination = request.destination;
  const int core = machine.memory().per_core(info.space) ? destination.core : -1;
  footprint.touches.push_back(
      {buffer_object(buffer_existence, info.space, info.id, destination.device, core), TouchMode::read});
  footprint.creates = machine.spec().dma_execution != model::DmaExecution::eager;
  if (!machine.topology().contains(destination)) return;  // a start that fails touches no more
  add_launch_read(machine, machine.topology().global(destination), footprint);
  if (footprint.creates) return;
  // Both phases run inside the start: the same touches as the phases themselves. The
  // destination is the buffer with the target's id on the destination core.
  const std::int64_t bytes = model::bytes_of(request.source);
  footprint.touches.push_back(access(request.source, TouchMode::read));
  if (request.send_semaphore >= 0)
    footprint.touches.push_back(
        cell(machine, request.send_semaphore, site.global, TouchMode::add, bytes, rules.ordered_signals));
  footprint.touches.push_back({buffer_object(buffer_contents, info.space, info.id, destination.device, core),
                               TouchMode::write, box_of(request.target.rect)});
  footprint.touches.push_back(cell(machine, request.recv_semaphore, machine.topology().global(destination),
                                   TouchMode::add, bytes, rules.ordered_signals));
}

}  // namespace weft::sim::ops
