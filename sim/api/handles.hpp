#pragma once
// Small value handles a kernel holds: semaphores and the target of a signal.

#include <cstdint>
#include <optional>

#include "model/semaphores.hpp"

namespace weft::sim {

// Only the kernel API makes these; each use is checked against the launch (execution) that
// made it, so a handle kept from another launch, or edited by hand, is a clear kernel_error.
struct Semaphore {
  int index = -1;  // in the machine's semaphore table
  int id = 0;      // the SPMD-symmetric id kernels and reports speak of
  model::SemaphoreKind kind = model::SemaphoreKind::regular;
  std::uint64_t launch = 0;  // the execution that made it
};

// Which cell a signal goes to: by default the signalling core's own device and core index.
struct Where {
  std::optional<int> device;
  std::optional<int> core;
};

}  // namespace weft::sim
