#pragma once
// allocate_buffer: a core allocates a scratch buffer (vmem, smem, vmem_shared). Visible, since
// ids come from a per-core counter (SPMD-symmetric) and a shared buffer is created by the first
// core to get there; never blocks. Its footprint writes the existence of the buffer it will
// make, which every DMA into that buffer reads.

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct AllocateBuffer {
  model::Space space;
  model::ElementType type;
  const model::Shape& shape;
  model::Buffer* made = nullptr;  // the result

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    made = machine.memory().allocate(site.core, space, type, shape, failure);
    if (made != nullptr) return true;
    failure = located(std::move(failure), site.line);
    return false;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    const int core = machine.memory().per_core(space) ? site.core.core : -1;
    footprint.touches.push_back({buffer_object(buffer_existence, space, machine.memory().next_id(site.core),
                                               site.core.device, core),
                                 scheduler::TouchMode::write});
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::allocate, made, model::Rect::whole(shape));
  }
};

}  // namespace weft::sim::ops
