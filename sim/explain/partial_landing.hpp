#pragma once
// A race with a chunk of a DMA's write phase (dma.chunk_bytes, docs/semantics.md §4), which a
// wait on the DMA's receive semaphore was meant to order. A DMA semaphore counts bytes, whoever
// brought them: the wait took its count from the chunks of the DMA that had landed, and perhaps
// from another copy on the same semaphore, and let its core through before this chunk landed
// (the hazard of copies of different sizes sharing one semaphore). The race story
// (race_story.hpp) sees only that the core never waited for this chunk; this names the wait and
// what it took instead.

#include <vector>

#include "model/failure.hpp"
#include "sim/explain/explanation.hpp"

namespace weft::sim {

// If `chunk` (a racing access) is a chunk of a DMA's write phase, not all of it, and a wait in
// `past` (the other access's causal past) took units of that DMA's landed chunks: appends to
// `out` what that wait took, why it passed, and the fix (first among the fixes).
void tell_partial_landing(const TraceRecorder& recorder, const std::vector<bool>& past, const model::FailureSite& chunk,
                          Explanation& out);

}  // namespace weft::sim
