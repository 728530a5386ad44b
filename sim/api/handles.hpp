#pragma once
// Small value handles a kernel holds: semaphores, arrays of them, and the target of a signal.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/semaphores.hpp"

namespace weft::sim {

// Only the kernel API makes these; each use is checked against the launch (execution) that
// made it, so a handle kept from another launch, or edited by hand, is a clear kernel_error.
struct Semaphore {
  int index = -1;  // in the machine's semaphore table
  int id = 0;      // the SPMD-symmetric id kernels and reports speak of
  model::SemaphoreKind kind = model::SemaphoreKind::regular;
  std::uint64_t launch = 0;  // the execution that made it
  // Taken from an array at an index outside it (index -1): the index asked for and the array's
  // size, for the report where the handle is used.
  std::int64_t array_index = 0;
  int array_size = 0;
};

// Semaphores of one kind allocated in one visible operation (Pallas' SemaphoreType.DMA((n,))),
// with consecutive ids. Indexing is free and checks nothing: an index outside the array gives
// a handle that is a kernel_error naming the line where it is used, as a bad ref index is.
class SemaphoreArray {
 public:
  SemaphoreArray() = default;
  explicit SemaphoreArray(std::vector<Semaphore> semaphores) : semaphores_(std::move(semaphores)) {}

  int size() const { return static_cast<int>(semaphores_.size()); }
  Semaphore operator[](std::int64_t index) const {
    if (index >= 0 && index < size()) return semaphores_[static_cast<std::size_t>(index)];
    Semaphore outside = semaphores_.empty() ? Semaphore{} : semaphores_.front();
    outside.index = -1;
    outside.array_index = index;
    outside.array_size = size();
    return outside;
  }

 private:
  std::vector<Semaphore> semaphores_;
};

// Which cell a signal goes to: by default the signalling core's own device and core index.
struct Where {
  std::optional<int> device{};
  std::optional<int> core{};
};

}  // namespace weft::sim
