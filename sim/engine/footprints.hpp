#pragma once
// The explorer's view of machine operations: which objects a core's pending operation or a DMA
// phase touches, and how (scheduler/footprint.hpp). Objects are named so that one object has
// one name in every execution: a buffer by (space, id, device, core), a semaphore cell by
// (semaphore id, global core), a buffer's existence like the buffer, and one counter of
// running cores, which every core's last transition decrements and every DMA phase observes
// (a DMA still pending when the last core finishes is in flight).

#include "model/dma.hpp"
#include "model/machine.hpp"
#include "scheduler/footprint.hpp"
#include "sim/engine/pending_op.hpp"

namespace weft::sim {

struct FootprintRules {
  bool ordered_signals = false;  // precise semaphore clocks with race detection: signals do not commute
};

scheduler::Footprint footprint_of(const PendingOp& op, int global_core, const model::Machine& machine,
                                  FootprintRules rules);
scheduler::Footprint footprint_of(const model::Dma& dma, const model::Machine& machine, FootprintRules rules);
// The touch every core's finishing transition adds.
scheduler::Touch core_finished_touch();

}  // namespace weft::sim
