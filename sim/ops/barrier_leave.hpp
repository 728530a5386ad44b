#pragma once
// barrier_leave: the second half of a device barrier (Core::device_barrier). The core blocks
// until every core of its device has arrived (its barrier cell holds cores_per_device units,
// model/device_barrier.hpp), takes them, and acquires the barrier's clock: what every core of
// the device did before arriving happens before what this one does next.

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct BarrierLeave {
  static constexpr std::string_view verb = "leaves the device barrier";
  Waits waits(const model::Machine& machine, int global) const {
    return Waits(Condition{-1, global, machine.device_barrier().cores_per_device(), true});
  }
  bool apply(model::Machine& machine, const OpSite& site, model::Failure&) const {
    machine.leave_barrier(site.global);
    return true;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    footprint.touches.push_back(
        barrier_touch(site.global, scheduler::TouchMode::take, machine.device_barrier().cores_per_device()));
  }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    return barrier_event(TraceEvent::Kind::barrier_leave, machine, site.global);
  }
};

}  // namespace weft::sim::ops
