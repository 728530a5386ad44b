#pragma once
// Where what was left at the end started: for a semaphore leak, the signals whose units no wait
// consumed (the recorder's FIFO pairing, semantics.md §3: a wait takes the oldest units, so the
// units left are the latest sent); for a DMA in flight, the start of each DMA that never landed
// and what became of the core that started it. Findings of one source line on many cores are
// told once, with the cells or DMAs they cover.

#include "sim/explain/explanation.hpp"

namespace weft::sim {

Explanation explain_leak(const TraceRecorder& recorder);
Explanation explain_in_flight(const TraceRecorder& recorder);

}  // namespace weft::sim
