#pragma once
// One DMA (docs/semantics.md §4): a copy of a source rectangle into a destination rectangle, possibly
// on another core or device, in two phases. The read phase snapshots the source and signals the
// send semaphore on the starting core; the write phase stores the snapshot (or adds it to what
// the destination holds) and signals the receive semaphore on the destination core, by the bytes
// it stored. The write phase lands whole, or in chunks of dma.chunk_bytes, a step each
// (model/dma_chunks.hpp). When each step runs is the scheduler's choice.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/buffer.hpp"
#include "model/failure.hpp"
#include "model/topology.hpp"

namespace weft::model {

// A buffer and the rectangle of it a ref names; `view` is the ref's shape (indexed dimensions
// dropped), which is what DMA shapes are compared by.
struct Slice {
  Buffer* buffer = nullptr;
  Rect rect{};
  Shape view{};
};

// The bytes of a slice's elements: what a DMA of it counts on its semaphores.
inline std::int64_t bytes_of(const Slice& slice) { return slice.rect.volume() * slice.buffer->element_bytes(); }

enum class DmaPhase : std::uint8_t { read, write, done };

// Where a DMA comes from when a library started it for the kernel (the Pallas pipeline of
// sim/pallas/): what it moves, and for which grid point. `what` is a string literal, so that a
// report made after the library returned can still name it; null: the kernel's own DMA.
struct DmaOrigin {
  const char* what = nullptr;  // "fetch of in", "write-back of out"
  int operand = -1;            // appended to `what` as "[operand]" when >= 0
  bool output = false;         // a write-back: the operand's array is the target (else the source)
  int grid_rank = 0;
  std::array<std::int64_t, 4> grid{};  // the grid's sizes
  unsigned parallel = 0;               // bit a set: grid dimension a is parallel (split across cores)
  std::int64_t step = 0;               // the row-major grid step
  int block_rank = 0;                  // the operand's block indices (its index map's result)
  std::array<std::int64_t, 4> block{};
  SourceLine spec;  // the operand's BlockSpec (line 0: not known)
};
// "fetch of in[0] 'x' for grid point (0, 1, 2), block (0, 2) (BlockSpec at matmul.cpp:45)";
// `array` names the operand's array (empty: no name).
std::string describe(const DmaOrigin& origin, std::string_view array = {});
// The grid point of the origin's step, one index per dimension.
std::array<std::int64_t, 4> grid_point(const DmaOrigin& origin);

// What a core asks for when it starts a DMA.
struct DmaRequest {
  Slice source{};
  Slice target{};        // as the starter names it: the buffer with its id is looked up on `destination`
  CoreId destination{};  // whose buffer (for per-core spaces) and receive cell
  int recv_semaphore = -1;
  int send_semaphore = -1;  // -1: none
  bool add = false;         // accumulate into the target instead of overwriting it
  DmaOrigin origin{};       // who started it for the kernel, for reports (by default the kernel itself)
};

// What is kept of a DMA for the whole execution (model/dma_records.hpp): everything a report,
// an explanation or the scheduler reads of it after it finished. Its slices, snapshot and
// progress are its in-flight part (DmaFlight), held only while it runs; a pipeline DMA's origin
// is in a side table. 72 bytes: a 1,024-core ring keeps 262,144 of them.
struct Dma {
  SourceLine line{};
  std::int64_t bytes = 0;
  CoreId starter{};
  CoreId destination{};  // the core whose recv semaphore cell the write phase signals
  int id = 0;            // in start order across the machine
  int sequence = 0;      // how many DMAs its starter had started before it
  int launch = 0;        // the launch its starter was in (model/launches.hpp)
  int recv_semaphore = -1;
  int send_semaphore = -1;         // -1: none
  int origin = -1;                 // its entry in the side table of origins; -1: the kernel's own DMA
  int flight = -1;                 // its in-flight part's slot in the pool
  bool add = false;                // the write phase adds the snapshot to the target
  DmaPhase next = DmaPhase::read;  // stays `write` until the write phase's last chunk has landed

  bool remote() const { return !(starter == destination); }
};

// What a DMA holds while it runs, in a slot of a recycled pool (model/dma_records.hpp).
struct DmaFlight {
  int dma = -1;  // the DMA that holds the slot (or last held it)
  Slice source{};
  Slice target{};                     // resolved on the destination device
  std::int64_t landed = 0;            // bytes of the write phase landed so far
  std::vector<std::byte> snapshot{};  // the source as the read phase found it; keeps its capacity
};

}  // namespace weft::model
