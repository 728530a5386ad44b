#pragma once
// The pipeline Pallas runs around a kernel body, with weft's own visible operations, so that
// its copies are scheduled, raced and traced like the kernel's (the Pallas guide "TPU
// pipelining"; the emitter of jax/_src/pallas/mosaic/pipeline.py).
//
// Each blocked operand (Memory::vmem) gets two VMEM slots of the block's shape and a DMA
// semaphore per slot. Over the grid steps a core runs, in order:
//   - before the first step, the first input blocks are fetched into slot 0 (DMAs from HBM);
//   - at each step, the core waits for the fetches of the blocks it is about to use, starts
//     the fetches of the next step's input blocks into the other slots (double buffering: they
//     land while the body runs), and runs the body on the current slots;
//   - an input block whose index does not change from one step to the next is neither fetched
//     nor waited again;
//   - an output block stays resident while consecutive steps map to it (the accumulator
//     pattern), and is written back (a DMA to HBM) after the last step that maps to it, or after
//     the core's last step; before a slot is used for the next output block, the core waits
//     for that slot's previous write-back; after the last step it waits for every write-back.
// A core that comes back to an output block it has already written back does what a TPU does:
// the slot is not read back in (the body sees what it held before) and the block is written back
// again when its index changes, so a body that overwrites the whole block is correct and one
// that accumulates into it loses the earlier part; a wrong result's report then names the
// operand, the block and both grid points. Under compat.profile = "jax" it is a kernel_error
// instead (interpret mode's "revisited block"). An output that aliases an input is exempt.
//
// Every DMA carries its origin (model::DmaOrigin): "fetch of in[0]" or "write-back of
// out[0]" and the grid point, which reports and timelines show.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/api/core.hpp"
#include "sim/pallas/grid.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::sim::pallas {

class Pipeline {
 public:
  struct Operand {
    model::Slice array;      // the whole array (an HBM buffer, or a slice of one)
    BlockSpec spec;
    bool output = false;
    bool aliased = false;    // an output that is also an input: no revisit check
    const char* what = "";   // the DMAs' origin text: a string literal
    int operand = -1;        // appended to `what` when >= 0
  };
  // Allocates every operand's slots and semaphores (the same allocations on every core, so
  // their ids stay SPMD-symmetric). `call` and `loc` name the launch in errors.
  Pipeline(Core& core, const Grid& grid, std::vector<Operand> operands, const ScalarPrefetch& prefetch,
           std::string call, Location loc);

  // Runs the grid steps [first, last); `body(point, step)` at each.
  void run(std::int64_t first, std::int64_t last, const std::function<void(const GridIndex&, std::int64_t)>& body);

  // What the body sees of operand `i` now: its current slot, or the whole array.
  const model::Slice& current(int i) const;

 private:
  struct State {
    Operand operand;
    model::Shape block_view;                    // the slot's shape (squeezed dimensions dropped)
    std::array<model::Slice, 2> slots{};
    std::array<Semaphore, 2> semaphores{};
    std::array<std::optional<Dma>, 2> pending;  // a DMA on each slot not yet waited
    int slot = 0;
    Block block;                                // the block in the current slot
    std::vector<std::pair<Block, std::int64_t>> written;  // outputs: blocks written back, and the step
  };
  bool blocked(const State& state) const { return state.operand.spec.memory == Memory::vmem; }
  Block block_at(const State& state, std::int64_t step) const;
  model::Slice block_slice(const State& state, const Block& block) const;
  void fetch(State& state, int slot, const Block& block, std::int64_t step);
  void write_back(State& state, std::int64_t step);
  void wait(State& state, int slot);
  void check_revisit(State& state, const Block& block, std::int64_t step);
  model::DmaOrigin origin(const State& state, std::int64_t step, const Block& block) const;
  [[noreturn]] void misuse(const std::string& what) const;

  Core& core_;
  const Grid& grid_;
  const ScalarPrefetch& prefetch_;
  std::string call_;
  Location loc_;
  std::vector<State> states_;
  std::vector<std::optional<Block>> next_;  // per operand: its block at the next step, if blocked
};

}  // namespace weft::sim::pallas
