#pragma once
// signal: a core adds `amount` to a semaphore cell, its own or another core's (on another
// device too). Never blocks. Signals commute with each other unless the precise semaphore clocks
// of race detection make their order matter (FootprintRules::ordered_signals).

#include <cstdint>

#include "sim/ops/objects.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim::ops {

struct Signal {
  static constexpr std::string_view verb = "signals";
  int semaphore;         // index in the machine's semaphore table
  model::CoreId target;  // whose cell
  int target_global;     // its global id, or -1 when the target names no core (the effect fails)
  std::int64_t amount;

  bool apply(model::Machine& machine, const OpSite& site, model::Failure& failure) const {
    if (machine.add(site.core, semaphore, target, amount, failure, site.line)) return true;
    if (failure.verdict != model::Verdict::crossed_launch) failure = located(std::move(failure), site.line);
    return false;
  }
  void footprint(const model::Machine& machine, const OpSite&, FootprintRules rules,
                 scheduler::Footprint& footprint) const {
    if (target_global < 0) return;
    footprint.touches.push_back(
        cell(machine, semaphore, target_global, scheduler::TouchMode::add, amount, rules.ordered_signals));
    add_launch_read(machine, target_global, footprint);
  }
  TraceEvent event(const model::Machine& machine, const OpSite&) const {
    return cell_event(TraceEvent::Kind::signal, machine, semaphore, target_global, amount);
  }
};

}  // namespace weft::sim::ops
