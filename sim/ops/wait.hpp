#pragma once
// wait: a core blocks until its own cell of a semaphore holds at least `amount`, then takes it.
// The one blocking entry of the table: enabled only when the cell holds enough, so a signal
// that enables it is dependent with it (an add against a take).

#include <cstdint>
#include <string>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Wait {
  int semaphore;  // index in the machine's semaphore table
  std::int64_t amount;

  bool enabled(const model::Machine& machine, int global) const { return machine.can_consume(semaphore, global, amount); }
  bool apply(model::Machine& machine, const OpSite& site, model::Failure&) const {
    machine.consume(semaphore, site.global, amount);
    return true;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    footprint.touches.push_back(cell(machine, semaphore, site.global, scheduler::TouchMode::take, amount, false));
  }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    return cell_event(TraceEvent::Kind::wait, machine, semaphore, site.global, amount);
  }
  // What the core waits for, while it is blocked here.
  Waiting waiting_for(const model::Machine& machine, const OpSite& site) const {
    const auto& semaphores = machine.semaphores();
    return {semaphore, semaphores.kind(semaphore), semaphores.id(semaphore), amount, semaphores.count(semaphore, site.global)};
  }
};

}  // namespace weft::sim::ops
