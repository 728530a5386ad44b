#include "sim/ops/dma_start.hpp"

namespace weft::sim::ops {

void DmaStart::footprint(const model::Machine& machine, const OpSite& site, FootprintRules rules,
                         scheduler::Footprint& footprint) const {
  using scheduler::TouchMode;
  const auto& info = target.buffer->info();
  const int core = machine.memory().per_core(info.space) ? site.core.core : -1;
  footprint.touches.push_back({buffer_object(buffer_existence, info.space, info.id, device, core), TouchMode::read});
  footprint.creates = machine.spec().dma_execution != model::DmaExecution::eager;
  if (footprint.creates) return;
  // Both phases run inside the start: the same touches as the phases themselves. The
  // destination is the buffer with the target's id on the destination core.
  const std::int64_t bytes = source.rect.volume() * model::element_bytes;
  const int destination = machine.topology().global({device, site.core.core});
  footprint.touches.push_back(access(source, TouchMode::read));
  if (send_semaphore >= 0)
    footprint.touches.push_back(cell(machine, send_semaphore, site.global, TouchMode::add, bytes, rules.ordered_signals));
  footprint.touches.push_back(
      {buffer_object(buffer_contents, info.space, info.id, device, core), TouchMode::write, box_of(target.rect)});
  footprint.touches.push_back(cell(machine, recv_semaphore, destination, TouchMode::add, bytes, rules.ordered_signals));
}

}  // namespace weft::sim::ops
