#include "sim/engine/blocked_cores.hpp"

#include "model/words.hpp"

namespace weft::sim {

std::vector<model::FailureSite> failure_sites(std::span<const StandingCore> cores, const model::Machine& machine,
                                              std::uint64_t step) {
  std::vector<model::FailureSite> sites;
  for (const StandingCore& core : cores) {
    std::string what = "stopped here";
    std::vector<model::BlockedWait> blocked;
    if (const auto& waits = core.waits) {
      what.clear();
      for (const ops::Condition& condition : *waits) {
        const int id = condition.device_barrier ? -1 : machine.semaphores().id(condition.semaphore);
        const std::int64_t holds = condition.holds(machine);
        what += std::string(what.empty() ? "" : ", or ") +
                (condition.device_barrier ? "waits at the device barrier"
                                          : "waits on " + machine.semaphores().describe(condition.semaphore)) +
                ": needs " + std::to_string(condition.needs) + ", holds " + std::to_string(holds);
        if (!condition.device_barrier) blocked.push_back({id, condition.needs, holds});
      }
    } else if (!core.polls.empty()) {
      what = "polls, and nothing it reads has changed since its last read: " + core.polls;
    }
    sites.push_back({{model::Accessor::Kind::core, core.site.global}, step, core.site.line, what, std::move(blocked)});
  }
  return sites;
}

std::string describe_blocked(std::span<const StandingCore> cores, std::span<const int> in_flight,
                             const model::Machine& machine) {
  std::string text;
  for (const StandingCore& core : cores) {
    text += "\n  " + model::to_string(core.site.core) + " at " + model::to_string(core.site.line);
    if (const auto& waits = core.waits) {
      const char* joint = ": ";
      for (const ops::Condition& condition : *waits) {
        text += joint;
        joint = "; or ";
        const std::int64_t holds = condition.holds(machine);
        if (condition.device_barrier) {
          text += "waits at the device barrier until all " + std::to_string(condition.needs) + " cores of device " +
                  std::to_string(core.site.core.device) + " arrive; " + std::to_string(holds) + " have";
        } else {
          const model::CoreId cell = machine.topology().core_of(condition.core);
          text += "waits on " + machine.semaphores().describe(condition.semaphore) + ", " +
                  model::words::cell(cell.device, cell.core) + ", needs " + std::to_string(condition.needs) +
                  ", holds " + std::to_string(holds);
        }
      }
    } else if (!core.polls.empty()) {
      text += ": polls, re-reading " + core.polls +
              "; nothing it reads has changed since its last read, and nothing "
              "left to run can change it (the spin reduction, docs/semantics.md §6)";
    }
  }
  if (!in_flight.empty()) text += "\npending DMAs:";
  for (int id : in_flight) text += "\n  " + machine.dmas().describe(id);
  return text;
}

}  // namespace weft::sim
