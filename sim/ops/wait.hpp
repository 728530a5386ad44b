#pragma once
// wait: a core blocks until its own cell of a semaphore holds at least `amount`, then takes it.
// It waits for one condition (the cell holds enough), so a signal that enables it is dependent
// with it (an add against a take).

#include <cstdint>
#include <string>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Wait {
  static constexpr std::string_view verb = "waits";
  int semaphore;  // index in the machine's semaphore table
  std::int64_t amount;

  Waits waits(const model::Machine&, int global) const { return Waits(Condition{semaphore, global, amount}); }
  bool apply(model::Machine& machine, const OpSite& site, model::Failure&) const {
    machine.take(semaphore, site.global, amount);
    return true;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    footprint.touches.push_back(cell(machine, semaphore, site.global, scheduler::TouchMode::take, amount, false));
  }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    return cell_event(TraceEvent::Kind::wait, machine, semaphore, site.global, amount);
  }
};

}  // namespace weft::sim::ops
