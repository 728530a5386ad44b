#pragma once
// Where the unfinished cores of an execution stand when it stops, and what each waits for: one
// set of facts (StandingCore: the site, the conditions of the operation it blocks at, or what it
// polls), from which every description of a blocked core comes. The failure sites carry the
// facts to the JSON output, the timeline and the wait-for graph (sim/explain/wait_for_graph.hpp);
// the deadlock text says them in one line per core.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/failure.hpp"
#include "model/machine.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim {

struct StandingCore {
  ops::OpSite site;
  std::optional<ops::Waits> waits;  // the conditions it blocks on (none: not at a blocking operation)
  std::string polls;                // blocked by the spin reduction: what it keeps reading (else empty)
};

// A failure site per core, at `step`: what it waits for, as words ("waits on semaphore 3: needs
// 4, holds 0") and, for semaphore cells, as facts (FailureSite::waits).
std::vector<model::FailureSite> failure_sites(std::span<const StandingCore> cores, const model::Machine& machine,
                                              std::uint64_t step);

// A line per core, then the DMAs still in flight (`in_flight`, their ids).
std::string describe_blocked(std::span<const StandingCore> cores, std::span<const int> in_flight,
                             const model::Machine& machine);

}  // namespace weft::sim
