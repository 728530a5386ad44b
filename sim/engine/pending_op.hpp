#pragma once
// What a core is about to do when it stops at a visible operation: enough for the scheduler's
// side to tell whether the core is enabled, what the operation will touch (the explorer's
// footprint) and, for reports, where the core stands. Plain data, filled without allocating.
//
// It is small (it is filled and handed over at every step): the slices are not copied but
// pointed to, in the frame of the kernel API call that stopped. They are valid only while the
// core stands at this operation, which is all the footprint needs; reports of where a core
// stood read only the line, kind, semaphore and value.

#include <cstdint>

#include "model/buffer.hpp"
#include "model/dma.hpp"
#include "model/failure.hpp"

namespace weft::sim {

struct PendingOp {
  enum class Kind : std::uint8_t { load, store, signal, wait, read, dma_start, allocate };
  Kind kind = Kind::load;
  int semaphore = -1;      // signal, wait, read: the semaphore index
  std::int64_t value = 0;  // signal: the increment; wait: the count it needs
  model::SourceLine line;
  int target_core = -1;    // signal: the global core whose cell it adds to
  const model::Slice* slice = nullptr;   // load, store: the elements; dma_start: the source
  const model::Slice* target = nullptr;  // dma_start: the destination as the starter names it
  int device = -1;         // dma_start: the destination device
  bool buffer = false;     // allocate: a buffer in `space` (else a semaphore)
  model::Space space = model::Space::hbm;

  static PendingOp of(Kind kind, model::SourceLine line) {
    PendingOp op;
    op.kind = kind;
    op.line = line;
    return op;
  }
};

}  // namespace weft::sim
