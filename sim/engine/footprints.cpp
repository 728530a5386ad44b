#include "sim/engine/footprints.hpp"

namespace weft::sim {
namespace {

using scheduler::ObjectId;
using scheduler::Touch;
using scheduler::TouchMode;

enum ObjectKind : std::uint32_t { buffer_contents = 1, semaphore_cell = 2, buffer_existence = 3, running_cores = 4 };

ObjectId buffer_object(ObjectKind kind, model::Space space, int id, int device, int core) {
  return {kind, (static_cast<std::int64_t>(space) << 32) | static_cast<std::uint32_t>(id), device, core};
}

ObjectId contents_of(const model::Buffer& buffer) {
  const auto& info = buffer.info();
  return buffer_object(buffer_contents, info.space, info.id, info.device, info.core);
}

scheduler::Box box_of(const model::Rect& rect) {
  scheduler::Box box;
  box.rank = rect.rank;
  for (int d = 0; d < rect.rank; ++d) {
    box.start[d] = rect.start[d];
    box.size[d] = rect.size[d];
  }
  if (rect.rank == 0) {  // a scalar buffer: one element, not "the whole object"
    box.rank = 1;
    box.size[0] = 1;
  }
  return box;
}

Touch access(const model::Slice& slice, TouchMode mode) { return {contents_of(*slice.buffer), mode, box_of(slice.rect)}; }

Touch cell(const model::Machine& machine, int semaphore, int global_core, TouchMode mode, std::int64_t amount,
           bool ordered) {
  Touch touch;
  touch.object = {semaphore_cell, machine.semaphores().id(semaphore), global_core, 0};
  touch.mode = mode;
  touch.amount = amount;
  touch.ordered = ordered;
  return touch;
}

void add_phase(scheduler::Footprint& footprint, const model::Dma& dma, model::DmaPhase phase,
               const model::Machine& machine, FootprintRules rules) {
  const auto& topology = machine.topology();
  if (phase == model::DmaPhase::read) {
    footprint.touches.push_back(access(dma.source, TouchMode::read));
    if (dma.send_semaphore >= 0)
      footprint.touches.push_back(cell(machine, dma.send_semaphore, topology.global(dma.starter), TouchMode::add,
                                       dma.bytes, rules.ordered_signals));
  } else {
    footprint.touches.push_back(access(dma.target, TouchMode::write));
    footprint.touches.push_back(cell(machine, dma.recv_semaphore, topology.global(dma.destination), TouchMode::add,
                                     dma.bytes, rules.ordered_signals));
  }
}

}  // namespace

Touch core_finished_touch() { return {{running_cores, 0, 0, 0}, TouchMode::add, {}, 1}; }

scheduler::Footprint footprint_of(const PendingOp& op, int global_core, const model::Machine& machine,
                                  FootprintRules rules) {
  scheduler::Footprint footprint;
  auto& touches = footprint.touches;
  const auto& topology = machine.topology();
  const model::CoreId me = topology.core_of(global_core);
  switch (op.kind) {
    case PendingOp::Kind::load: touches.push_back(access(*op.slice, TouchMode::read)); break;
    case PendingOp::Kind::store: touches.push_back(access(*op.slice, TouchMode::write)); break;
    case PendingOp::Kind::signal:
      if (op.target_core >= 0)
        touches.push_back(cell(machine, op.semaphore, op.target_core, TouchMode::add, op.value, rules.ordered_signals));
      break;
    case PendingOp::Kind::wait: touches.push_back(cell(machine, op.semaphore, global_core, TouchMode::take, op.value, false)); break;
    case PendingOp::Kind::read: touches.push_back(cell(machine, op.semaphore, global_core, TouchMode::observe, 0, false)); break;
    case PendingOp::Kind::allocate:
      if (op.buffer) {
        const int core = machine.memory().per_core(op.space) ? me.core : -1;
        touches.push_back({buffer_object(buffer_existence, op.space, machine.memory().next_id(me), me.device, core),
                           TouchMode::write});
      }
      break;
    case PendingOp::Kind::dma_start: {
      const auto& target = op.target->buffer->info();
      const int core = machine.memory().per_core(target.space) ? me.core : -1;
      touches.push_back({buffer_object(buffer_existence, target.space, target.id, op.device, core), TouchMode::read});
      footprint.creates = machine.spec().dma_execution != model::DmaExecution::eager;
      if (!footprint.creates) {
        // Both phases run inside the start: the same touches as the phases themselves. The
        // destination is the buffer with the target's id on the destination core.
        const int destination = topology.global({op.device, me.core});
        touches.push_back(access(*op.slice, TouchMode::read));
        if (op.value >= 0)
          touches.push_back(cell(machine, static_cast<int>(op.value), global_core, TouchMode::add,
                                 op.slice->rect.volume() * model::element_bytes, rules.ordered_signals));
        touches.push_back({buffer_object(buffer_contents, target.space, target.id, op.device, core), TouchMode::write,
                           box_of(op.target->rect)});
        touches.push_back(cell(machine, op.semaphore, destination, TouchMode::add,
                               op.slice->rect.volume() * model::element_bytes, rules.ordered_signals));
      }
      break;
    }
  }
  return footprint;
}

scheduler::Footprint footprint_of(const model::Dma& dma, const model::Machine& machine, FootprintRules rules) {
  scheduler::Footprint footprint;
  add_phase(footprint, dma, dma.next, machine, rules);
  footprint.touches.push_back({{running_cores, 0, 0, 0}, TouchMode::observe});
  return footprint;
}

}  // namespace weft::sim
