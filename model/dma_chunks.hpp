#pragma once
// How a DMA's write phase lands (docs/semantics.md §4). With dma.chunk_bytes = 0 it lands whole,
// in one step. With a chunk size C > 0 it lands in chunks, one step each, in order: a chunk is a
// slab of the target rectangle along its first dimension whose extent is > 1, holding as many
// whole rows of that dimension as fit in C bytes, and at least one. Every dimension before that
// one has extent 1, so a slab's elements are contiguous in the snapshot (row-major over the
// copy's view, as the target is): chunk k starts k slabs' bytes into it. A copy of one element,
// or of no more than C bytes, is one chunk.
//
// `DmaFlight::landed` counts the bytes of the write phase that have landed; these functions turn
// it into the chunk about to land and the one that landed last.

#include <cstdint>

#include "model/dma.hpp"
#include "model/rect.hpp"

namespace weft::model {

struct DmaChunk {
  Rect rect;                // the part of the target it writes, in the target buffer's coordinates
  std::int64_t offset = 0;  // where its bytes start in the snapshot
  std::int64_t bytes = 0;   // what it signals on the receive semaphore
};

// The chunk that lands next (flight.landed < dma.bytes), under `chunk_bytes` (0: the whole copy).
DmaChunk next_chunk(const Dma& dma, const DmaFlight& flight, std::int64_t chunk_bytes);
// The chunk that landed last (flight.landed > 0): what a trace shows of the step that landed it.
DmaChunk landed_chunk(const Dma& dma, const DmaFlight& flight, std::int64_t chunk_bytes);

}  // namespace weft::model
