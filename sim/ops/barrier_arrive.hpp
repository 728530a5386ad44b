#pragma once
// barrier_arrive: the first half of a device barrier (Core::device_barrier). The core arrives:
// one unit in the barrier cell of every core of its device (model/device_barrier.hpp), and its
// clock joins the barrier's. Never blocks. Arrivals commute with each other, and each is
// dependent with the departures whose cells it fills (an add against a take), which is what
// orders the barrier for the explorer.
//
// A barrier is two entries, not one blocking entry, because a core may only leave once every
// core has *arrived*: an arrival has to be an operation of its own for that to be a dependence
// the explorer sees (a single entry would be enabled by where the other cores stand, which no
// footprint says).

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct BarrierArrive {
  static constexpr std::string_view verb = "arrives at the device barrier";
  bool apply(model::Machine& machine, const OpSite& site, model::Failure&) const {
    machine.arrive_at_barrier(site.core);
    return true;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    const int first = site.global - site.core.core;
    for (int core = first; core < first + machine.topology().cores_per_device(); ++core)
      footprint.touches.push_back(barrier_touch(core, scheduler::TouchMode::add, 1));
  }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    return barrier_event(TraceEvent::Kind::barrier_arrive, machine, site.global);
  }
};

}  // namespace weft::sim::ops
