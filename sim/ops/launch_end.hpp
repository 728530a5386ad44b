#pragma once
// launch_end: a core ends one launch of a program of several (docs/semantics.md §12;
// model/machine_launches.cpp): its launch's scratch is freed as a scope's end frees it, a cell of
// its launch's semaphores left non-zero is a semaphore_leak, it counts as in the next launch,
// and it arrives at its device's barrier; a barrier_leave follows, so that a device's cores
// enter the next launch together. Never blocks. Not performed after a program's last launch
// (the exit checks end it), nor in a program of one launch.
//
// Footprint: the scope's end (each freed buffer's existence and contents), an observation of
// each of its launch's semaphore cells on this core (the leak check), the write of the core's
// launch (every signal, DMA start and DMA phase that reaches the core reads it) and the barrier
// arrival.

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct LaunchEnd {
  static constexpr std::string_view verb = "ends a launch";
  int ended = 0;  // the launch it ended (0-based), for the trace

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) {
    ended = machine.launches().of(site.global);
    return machine.end_launch(site.core, site.line, failure);
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    add_freed_scope(machine, site.core, footprint);
    for (const int semaphore : machine.semaphores().of_launch(machine.launches().of(site.global)))
      footprint.touches.push_back(cell(machine, semaphore, site.global, scheduler::TouchMode::observe, 0, false));
    footprint.touches.push_back(launch_write(site.global));
    const int first = site.global - site.core.core;
    for (int core = first; core < first + machine.topology().cores_per_device(); ++core)
      footprint.touches.push_back(barrier_touch(core, scheduler::TouchMode::add, 1));
  }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    TraceEvent event = barrier_event(TraceEvent::Kind::launch_end, machine, site.global);
    event.amount = ended + 1;
    return event;
  }
};

}  // namespace weft::sim::ops
