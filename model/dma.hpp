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

enum class DmaPhase { read, write, done };

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
  SourceLine spec;                     // the operand's BlockSpec (line 0: not known)
};
// "fetch of in[0] 'x' for grid point (0, 1, 2), block (0, 2) (BlockSpec at matmul.cpp:45)";
// `array` names the operand's array (empty: no name).
std::string describe(const DmaOrigin& origin, std::string_view array = {});
// The grid point of the origin's step, one index per dimension.
std::array<std::int64_t, 4> grid_point(const DmaOrigin& origin);

// What a core asks for when it starts a DMA.
struct DmaRequest {
  Slice source{};
  Slice target{};      // as the starter names it: the buffer with its id is looked up on `destination`
  CoreId destination{};  // whose buffer (for per-core spaces) and receive cell
  int recv_semaphore = -1;
  int send_semaphore = -1;  // -1: none
  bool add = false;         // accumulate into the target instead of overwriting it
  DmaOrigin origin{};       // who started it for the kernel, for reports (by default the kernel itself)
};

struct Dma {
  int id = 0;        // in start order across the machine
  int sequence = 0;  // how many DMAs its starter had started before it
  int launch = 0;    // the launch its starter was in (model/launches.hpp)
  CoreId starter{};
  CoreId destination{};  // the core whose recv semaphore cell the write phase signals
  Slice source{};
  Slice target{};      // resolved on the destination device
  int recv_semaphore = -1;
  int send_semaphore = -1;  // -1: none
  std::int64_t bytes = 0;
  bool add = false;  // the write phase adds the snapshot to the target
  DmaPhase next = DmaPhase::read;  // stays `write` until the write phase's last chunk has landed
  std::int64_t landed = 0;         // bytes of the write phase landed so far
  std::vector<std::byte> snapshot{};
  SourceLine line{};
  DmaOrigin origin{};

  bool remote() const { return !(starter == destination); }
};

// A library's DMA as its origin names it, with its array's name ("" for the kernel's own DMA).
std::string describe_origin(const Dma& dma);
std::string describe(const Dma& dma);  // "DMA 3 started by device 0 core 0 at ring.cpp:42: hbm buffer 1 ... -> ..."

}  // namespace weft::model
