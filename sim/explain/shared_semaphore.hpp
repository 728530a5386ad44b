#pragma once
// A race with a DMA's write that the core's wait on the DMA's receive semaphore was meant to
// order, where that wait took its units from another copy signalling the same semaphore (two
// DMAs sharing one semaphore, as when both directions of a ring count on one). A DMA semaphore
// counts bytes, whoever brought them: the wait let its core through, and the core read the
// first DMA's target before it landed. The race story (race_story.hpp) sees only that the core
// never waited for this DMA; this names the wait, what it took, and the fix.
//
// The wait is taken as meant for this DMA when it is the core's last wait on the DMA's cell
// before the racing access, took none of this DMA's units, and the core touched nothing the
// copies it took from brought, between the wait and the access. (A wait that did its own job,
// its copy's target read next, is a kernel that forgot to wait for this DMA: not this story.)

#include "model/failure.hpp"
#include "sim/explain/explanation.hpp"
#include "sim/trace/causality.hpp"

namespace weft::sim {

// If `dma_write` is a DMA's whole write phase and `access` a core's access racing with it whose
// last wait on that DMA's receive cell took another copy's units: appends to `out` what that
// wait took and why it passed, and makes its fix the only one. The race story's fixes order the
// access through whatever chain reached it (an entry barrier, say), which is not the ordering
// the kernel meant: that wait was.
void tell_shared_semaphore(const TraceRecorder& recorder, const Causality& causality,
                           const model::FailureSite& dma_write, const model::FailureSite& access, Explanation& out);

}  // namespace weft::sim
