#pragma once
// allocate_buffer: a core allocates a scratch buffer (vmem, smem, vmem_shared). Visible, since
// ids come from a per-core counter (SPMD-symmetric) and a shared buffer is created by the first
// core to get there; never blocks. Its footprint touches the existence of the buffer it will
// make, which every DMA into that buffer reads. A private buffer's existence is written. A
// shared buffer's is added to: the SPMD allocations of one shared buffer by several cores
// commute (whichever comes first creates it, the others attach, and the state after all of them
// is the same in every order; an allocation whose shape differs is a kernel_error in every
// order), while a DMA into it still conflicts with each of them (docs/semantics.md §7).

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct AllocateBuffer {
  static constexpr std::string_view verb = "allocates a buffer";
  model::Space space;
  model::ElementType type;
  const model::Shape& shape;
  std::string_view name;          // the kernel's name for it, or empty (model/naming.hpp)
  model::Buffer* made = nullptr;  // the result

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    made = machine.memory().allocate(site.core, space, type, shape, failure, {name, site.line});
    if (made != nullptr) return true;
    failure = located(std::move(failure), site.line);
    return false;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    const bool private_buffer = machine.memory().per_core(space);
    footprint.touches.push_back({buffer_object(buffer_existence, space, machine.memory().next_id(site.core),
                                               site.core.device, private_buffer ? site.core.core : -1),
                                 private_buffer ? scheduler::TouchMode::write : scheduler::TouchMode::add});
  }
  TraceEvent event(const model::Machine&, const OpSite&) const {
    return access_event(TraceEvent::Kind::allocate, made, model::Rect::whole(shape));
  }
};

}  // namespace weft::sim::ops
