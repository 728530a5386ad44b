#pragma once
// The pipeline Pallas runs around a kernel body, with weft's own visible operations, so that
// its copies are scheduled, raced and traced like the kernel's (the Pallas guide "TPU
// pipelining"; the emitter of jax/_src/pallas/mosaic/pipeline.py).
//
// Each blocked operand (Memory::vmem) gets `buffer_count` VMEM slots of the block's shape (2 unless
// its BlockSpec says Buffered{n}; an output has 1 or 2) and a DMA semaphore per slot, used in
// turn. Over the grid steps a core runs, in order:
//   - an input's block is fetched (a DMA from HBM) when its index differs from the step
//     before's (or at the core's first step); a block index that does not change is neither
//     fetched nor waited again. With n slots the fetch for step s + n - 1 starts at step s, so
//     up to n - 1 fetches are in flight while the body runs (n = 2: double buffering): before
//     the first step the fetches for the first n - 1 steps start; at each step the core waits
//     for the block it is about to use, then starts the fetch for step s + n - 1. With one slot
//     the block is fetched at its own step and waited at once;
//   - an output block stays resident while consecutive steps map to it (the accumulator
//     pattern), and is written back (a DMA to HBM) after the last step that maps to it, or after
//     the core's last step; before a slot is used for the next output block, the core waits
//     for that slot's previous write-back; after the last step it waits for every write-back.
// A block that overhangs the array (block_placement.hpp) is padded as a TPU pads it: its fetch
// copies only the part inside the array, and before that fetch starts the core writes the
// memory policy's uninitialized value (memory.uninitialized: NaN for floats) into the rest of the
// slot (one masked store, a visible operation at the launch's line), so that a body that lets
// padding reach the output gives a visible wrong result; its write-back copies only the part
// inside the array (writes to padding are dropped). The report of a wrong result then names the
// padded block. Interpret mode pads the array itself with the same value and gives the same
// values and verdicts, so compat.profile = "jax" changes nothing here.
// A core that comes back to an output block it has already written back does what a TPU does:
// the slot is not read back in (the body sees what it held before) and the block is written back
// again when its index changes, so a body that overwrites the whole block is correct and one
// that accumulates into it loses the earlier part; a wrong result's report then names the
// operand, the block and both grid points. Under compat.profile = "jax" it is a kernel_error
// instead (interpret mode's "revisited block"). An output that aliases an input is exempt.
//
// Every DMA carries its origin (model::DmaOrigin): "fetch of in[0]" or "write-back of
// out[0]" and the grid point, which reports and timelines show.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/api/core.hpp"
#include "sim/pallas/block_placement.hpp"
#include "sim/pallas/grid.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::sim::pallas {

class Pipeline {
 public:
  struct Operand {
    model::Slice array;  // the whole array (an HBM buffer, or a slice of one)
    BlockSpec spec;
    bool output = false;
    bool aliased = false;   // an output that is also an input: no revisit check
    const char* what = "";  // the DMAs' origin text: a string literal
    int operand = -1;       // appended to `what` when >= 0
  };
  // Allocates every operand's slots and semaphores (the same allocations on every core, so
  // their ids stay SPMD-symmetric). `call` and `loc` name the launch in errors; a bad BlockSpec
  // (rank, extents, buffer count) is a misuse of the launch.
  Pipeline(Core& core, const Grid& grid, std::vector<Operand> operands, const ScalarPrefetch& prefetch,
           std::string call, Location loc);

  // Runs the grid steps [first, last); `body(point, step)` at each.
  void run(std::int64_t first, std::int64_t last, const std::function<void(const GridIndex&, std::int64_t)>& body);

  // What the body sees of operand `i` now: its current slot, or the whole array.
  const model::Slice& current(int i) const;

 private:
  struct Slot {
    model::Buffer* buffer = nullptr;
    Semaphore semaphore;
    std::optional<Dma> pending;  // a DMA on the slot not yet waited
  };
  struct State {
    Operand operand;
    std::vector<Slot> slots;                              // buffer_count of them
    model::Slice current;                                 // what the body sees: the current slot, whole
    int slot = 0;                                         // the current slot
    int fill = 0;                                         // inputs: the slot the next fetch goes into
    Block block;                                          // the block in the current slot
    std::vector<Block> upcoming;                          // a ring: the block of step t at t % size
    std::int64_t known_until = 0;                         // the steps before it are in `upcoming`
    std::vector<std::byte> padding_value;                 // a slot of the padding value, if a block can overhang
    bool padding_noted = false;                           // the report of a wrong result names one padded fetch
    std::vector<std::pair<Block, std::int64_t>> written;  // outputs: blocks written back, and the step
  };
  bool blocked(const State& state) const { return state.operand.spec.memory == Memory::vmem; }
  int buffers(const State& state) const { return state.operand.spec.buffer_count; }
  model::Shape slot_shape(const State& state) const;  // checks the BlockSpec
  Block block_at(const State& state, std::int64_t step) const;
  // The block of `step`, which must be at most `upcoming.size() - 1` steps before the latest
  // asked for: each index map is called once per step, in step order.
  const Block& block_of(State& state, std::int64_t step);
  void use_slot(State& state, int slot);
  void fetch(State& state, int slot, const Block& block, std::int64_t step);
  void write_back(State& state, std::int64_t step);
  void wait(State& state, int slot);
  void check_revisit(State& state, const Block& block, std::int64_t step);
  void note_padding(State& state, const BlockPlacement& placement, const Block& block, std::int64_t step);
  model::DmaOrigin origin(const State& state, std::int64_t step, const Block& block) const;
  [[noreturn]] void misuse(const std::string& what) const;

  Core& core_;
  const Grid& grid_;
  const ScalarPrefetch& prefetch_;
  std::string call_;
  Location loc_;
  std::vector<State> states_;
};

}  // namespace weft::sim::pallas
