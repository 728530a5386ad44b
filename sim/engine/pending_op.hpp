#pragma once
// What a core is about to do when it stops at a visible operation: enough for the scheduler's
// side to tell whether the core is enabled and, for reports, where it stands.

#include <cstdint>

#include "model/failure.hpp"

namespace weft::sim {

struct PendingOp {
  enum class Kind : std::uint8_t { load, store, signal, wait, read, dma_start, allocate };
  Kind kind = Kind::load;
  int semaphore = -1;      // wait: the semaphore index whose own cell it waits on
  std::int64_t value = 0;  // wait: the count it needs
  model::SourceLine line;
};

}  // namespace weft::sim
