#pragma once
// read: a core reads the count of its own cell of a semaphore. Never blocks; it observes the
// cell, so it is dependent with every signal to it and wait on it. A polling loop may repeat it
// (the spin reduction).

#include <cstdint>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Read {
  static constexpr std::string_view verb = "reads a semaphore";
  int semaphore;           // index in the machine's semaphore table
  std::int64_t count = 0;  // the result

  bool apply(model::Machine& machine, const OpSite& site, model::Failure&) {
    count = machine.semaphores().count(semaphore, site.global);
    return true;
  }
  void footprint(const model::Machine& machine, const OpSite& site, FootprintRules,
                 scheduler::Footprint& footprint) const {
    footprint.touches.push_back(cell(machine, semaphore, site.global, scheduler::TouchMode::observe, 0, false));
  }
  PollTarget polls(const OpSite& site) const { return {nullptr, semaphore, site.global, {}, site.line}; }
  TraceEvent event(const model::Machine& machine, const OpSite& site) const {
    return cell_event(TraceEvent::Kind::read, machine, semaphore, site.global, 0);
  }
};

}  // namespace weft::sim::ops
