#pragma once
// What the simulated machine looks like and which policies it follows (docs/semantics.md §1-4, §8).
// Plain data, filled by the config loader in sim/ and read by the model.

#include <cstdint>
#include <vector>

namespace weft::model {

enum class Uninitialized { nan, zero };
enum class OutOfBoundsReads { raise, uninitialized };
enum class DmaExecution { eager, on_wait, async };
enum class CompatProfile { none, jax };

struct MachineSpec {
  std::vector<int> mesh{4};  // devices laid out row-major; a 1-D mesh of D devices by default
  int cores_per_device = 1;

  Uninitialized uninitialized = Uninitialized::nan;
  OutOfBoundsReads out_of_bounds_reads = OutOfBoundsReads::raise;
  std::int64_t hbm_bytes = std::int64_t{1} << 30;
  std::int64_t vmem_bytes = std::int64_t{16} << 20;
  std::int64_t smem_bytes = std::int64_t{1} << 20;
  std::int64_t vmem_shared_bytes = std::int64_t{16} << 20;
  // Host memory the buffers of one execution may take; 0: half the physical memory (host_memory.hpp).
  std::int64_t host_bytes = 0;

  DmaExecution dma_execution = DmaExecution::async;
  // The bytes a DMA's write phase lands in one step (whole rows of the target, at least one:
  // model/dma_chunks.hpp); 0: the whole copy in one step.
  std::int64_t dma_chunk_bytes = 0;
  CompatProfile compat = CompatProfile::none;
  // The launches of the program (docs/semantics.md §12): the kernel runs this many times in a
  // row on every core, each launch with scratch of its own in the same slots.
  int launches = 1;

  int devices() const {
    int count = 1;
    for (int extent : mesh) count *= extent;
    return count;
  }
  int cores() const { return devices() * cores_per_device; }
};

}  // namespace weft::model
