#include "sim/pallas/pipeline.hpp"

#include <algorithm>
#include <exception>

namespace weft::sim::pallas {
namespace {

std::string block_text(const Block& block) { return to_string(static_cast<const GridIndex&>(block)); }

// "in[0] 'x'", as the body's Program names it.
std::string operand_name(const Pipeline::Operand& operand) {
  std::string text = std::string(operand.output ? "out[" : "in[") + std::to_string(operand.operand) + "]";
  const std::string& buffer = operand.array.buffer->info().name;
  return buffer.empty() ? text : text + " '" + buffer + "'";
}

// Where the author wrote an operand's blocking: "its BlockSpec at matmul.cpp:45, in the
// pallas_call at matmul.cpp:87" (the launch alone when the BlockSpec's line is not known).
std::string written_at(const Pipeline::Operand& operand, const std::string& call, Location loc) {
  const model::SourceLine spec = operand.spec.line;
  return (spec.line > 0 ? "its BlockSpec at " + model::to_string(spec) + ", in " : std::string()) + "the " + call +
         " at " + model::to_string(model::SourceLine{loc.file_name(), static_cast<int>(loc.line())});
}

}  // namespace

Pipeline::Pipeline(Core& core, const Grid& grid, std::vector<Operand> operands, const ScalarPrefetch& prefetch,
                   std::string call, Location loc)
    : core_(core), grid_(grid), prefetch_(prefetch), call_(std::move(call)), loc_(loc) {
  states_.reserve(operands.size());
  for (Operand& operand : operands) {
    State state;
    state.operand = std::move(operand);
    if (blocked(state)) {
      const model::Shape block_view = slot_shape(state);
      const model::ElementType type = state.operand.array.buffer->info().type;
      // One allocation for the usual counts; a huge one grows as VMEM fills (it runs out first).
      state.slots.reserve(static_cast<std::size_t>(std::min(buffers(state), 4)));
      for (int slot = 0; slot < buffers(state); ++slot) {
        model::Buffer* buffer = core_.allocate(model::Space::vmem, type, block_view, loc_);
        state.slots.push_back({buffer, core_.dma_semaphore(loc_), std::nullopt});
      }
      // The blocks of the step before, this one and the next n - 1 (no more than the grid has).
      const std::int64_t ahead =
          std::min<std::int64_t>(std::max(buffers(state), 2), std::max<std::int64_t>(grid_.steps(), 2));
      state.upcoming.resize(static_cast<std::size_t>(ahead + 1));
      if (can_overhang(state.operand.array, state.operand.spec)) {
        // What a fresh slot holds is the memory policy's fill: the padding value.
        const model::Buffer& fresh = *state.slots.front().buffer;
        state.padding_value.assign(fresh.data<std::byte>(), fresh.data<std::byte>() + fresh.bytes());
      }
      use_slot(state, 0);
    }
    states_.push_back(std::move(state));
  }
}

model::Shape Pipeline::slot_shape(const State& state) const {
  const auto& block = state.operand.spec.block;
  const model::Shape& array = state.operand.array.view;
  const std::string name = operand_name(state.operand);
  if (static_cast<int>(block.size()) != array.rank)
    misuse(name + " has " + std::to_string(array.rank) + " dimensions, its block " + std::to_string(block.size()));
  if (!state.operand.spec.index_map) misuse(name + " has a block but no index map");
  const int count = buffers(state);
  if (count < 1) misuse(name + " has Buffered(" + std::to_string(count) + "): a buffer count must be at least 1");
  if (state.operand.output && count > 2)
    misuse(name + " has Buffered(" + std::to_string(count) + "): an output has 1 or 2 buffers (as on a TPU)");
  model::Shape view;
  for (const std::int64_t extent : block) {
    if (extent == squeezed) continue;
    if (extent <= 0) misuse(name + " has a block extent of " + std::to_string(extent));
    view.dims[static_cast<std::size_t>(view.rank++)] = extent;
  }
  return view;
}

const model::Slice& Pipeline::current(int i) const {
  const State& state = states_[static_cast<std::size_t>(i)];
  return blocked(state) ? state.current : state.operand.array;
}

void Pipeline::use_slot(State& state, int slot) {
  state.slot = slot;
  model::Buffer* buffer = state.slots[static_cast<std::size_t>(slot)].buffer;
  state.current = {buffer, model::Rect::whole(buffer->info().shape), buffer->info().shape};
}

void Pipeline::misuse(const std::string& what) const { core_.misuse("runs " + call_, loc_, what); }

Block Pipeline::block_at(const State& state, std::int64_t step) const {
  const GridIndex point = grid_.point(step);
  Block block;
  try {
    block = state.operand.spec.index_map(point, prefetch_);
  } catch (const std::exception& error) {
    misuse("the index map of " + operand_name(state.operand) + " threw at grid point " + to_string(point) + ": " +
           error.what());
  }
  if (block.rank != static_cast<int>(state.operand.spec.block.size()))
    misuse("the index map of " + operand_name(state.operand) + " gave " + std::to_string(block.rank) +
           " block indices at grid point " + to_string(point) + " for a block of " +
           std::to_string(state.operand.spec.block.size()) + " dimensions");
  return block;
}

const Block& Pipeline::block_of(State& state, std::int64_t step) {
  const auto size = static_cast<std::int64_t>(state.upcoming.size());
  for (; state.known_until <= step; ++state.known_until)
    state.upcoming[static_cast<std::size_t>(state.known_until % size)] = block_at(state, state.known_until);
  return state.upcoming[static_cast<std::size_t>(step % size)];
}

model::DmaOrigin Pipeline::origin(const State& state, std::int64_t step, const Block& block) const {
  model::DmaOrigin origin;
  origin.block_rank = block.rank;
  for (int d = 0; d < block.rank; ++d) origin.block[static_cast<std::size_t>(d)] = block[d];
  origin.what = state.operand.what;
  origin.operand = state.operand.operand;
  origin.output = state.operand.output;
  origin.spec = state.operand.spec.line;
  origin.grid_rank = grid_.rank();
  for (int axis = 0; axis < grid_.rank(); ++axis) {
    origin.grid[static_cast<std::size_t>(axis)] = grid_.size(axis);
    if (grid_.parallel(axis)) origin.parallel |= 1U << axis;
  }
  origin.step = step;
  return origin;
}

void Pipeline::fetch(State& state, int slot, const Block& block, std::int64_t step) {
  Slot& target = state.slots[static_cast<std::size_t>(slot)];
  const BlockPlacement placement = place_block(state.operand.array, state.operand.spec, block, target.buffer);
  if (placement.ragged()) {
    // The slot's padding holds the memory policy's value from the fetch on.
    const model::Shape& shape = target.buffer->info().shape;
    core_.store_bytes({target.buffer, model::Rect::whole(shape), shape},
                      {placement.padding.data(), static_cast<std::size_t>(placement.padding_count)},
                      state.padding_value.data(), loc_);
    note_padding(state, placement, block, step);
  }
  target.pending =
      core_.start_copy(placement.array, placement.slot, target.semaphore, origin(state, step, block), loc_);
}

void Pipeline::write_back(State& state, std::int64_t step) {
  Slot& source = state.slots[static_cast<std::size_t>(state.slot)];
  const BlockPlacement placement = place_block(state.operand.array, state.operand.spec, state.block, source.buffer);
  source.pending =
      core_.start_copy(placement.slot, placement.array, source.semaphore, origin(state, step, state.block), loc_);
  state.written.emplace_back(state.block, step);
}

void Pipeline::wait(State& state, int slot) {
  auto& pending = state.slots[static_cast<std::size_t>(slot)].pending;
  if (!pending) return;
  pending->wait_recv(loc_);
  pending.reset();
}

void Pipeline::note_padding(State& state, const BlockPlacement& placement, const Block& block, std::int64_t step) {
  if (state.padding_noted) return;
  state.padding_noted = true;
  const model::BufferInfo& array = state.operand.array.buffer->info();
  core_.note_for_wrong_result(operand_name(state.operand) + " block " + block_text(block) + " at grid point " +
                              to_string(grid_.point(step)) + " overhangs the array " + model::to_string(array.shape) +
                              " (" + written_at(state.operand, call_, loc_) + "): only " +
                              model::to_string(placement.array.rect) +
                              " is fetched, the rest of the block is padding, which holds what "
                              "fresh memory holds (memory.uninitialized; NaN for floats by default; on a TPU, whatever "
                              "the slot held before); a body that lets padding reach the output gives a wrong result");
}

void Pipeline::check_revisit(State& state, const Block& block, std::int64_t step) {
  if (state.operand.aliased) return;
  const auto earlier = std::find_if(state.written.begin(), state.written.end(),
                                    [&](const auto& written) { return written.first == block; });
  if (earlier == state.written.end()) return;
  const std::string revisit = operand_name(state.operand) + " comes back to block " + block_text(block) +
                              " at grid point " + to_string(grid_.point(step)) +
                              " after writing it back at grid point " + to_string(grid_.point(earlier->second));
  if (core_.jax_compat())  // interpret mode refuses it
    misuse(revisit +
           ": the block was not read back in, so the earlier result is overwritten (make the steps that map "
           "to one output block consecutive)");
  // A TPU goes on: the slot is not read back in, so the body sees what the slot held before, and
  // the block is written back again (all of it) when its index changes.
  core_.note_for_wrong_result(
      revisit + " (" + written_at(state.operand, call_, loc_) +
      "): on a TPU the block is not read back in, so what the body accumulated into it before is "
      "lost; make the steps that map to one output block consecutive");
}

void Pipeline::run(std::int64_t first, std::int64_t last,
                   const std::function<void(const GridIndex&, std::int64_t)>& body) {
  if (first >= last) return;
  for (State& state : states_) {
    if (!blocked(state)) continue;
    state.known_until = first;
    state.fill = 0;
    use_slot(state, 0);
    state.block = block_of(state, first);
    if (state.operand.output) continue;
    // The prologue: the fetches for the first n - 1 steps (one slot: none, each step fetches its own).
    for (std::int64_t step = first; step < std::min(last, first + buffers(state) - 1); ++step) {
      if (step > first && block_of(state, step) == block_of(state, step - 1)) continue;
      fetch(state, state.fill, block_of(state, step), step);
      state.fill = (state.fill + 1) % buffers(state);
    }
  }
  for (std::int64_t step = first; step < last; ++step) {
    const bool last_step = step + 1 == last;
    for (State& state : states_)
      if (blocked(state)) block_of(state, std::min(last - 1, step + std::max(buffers(state) - 1, 1)));
    for (State& state : states_) {
      if (!blocked(state) || state.operand.output) continue;
      const int count = buffers(state);
      const bool changed = step > first && !(block_of(state, step) == block_of(state, step - 1));
      if (changed) {
        use_slot(state, (state.slot + 1) % count);
        state.block = block_of(state, step);
      }
      if (count == 1 && (changed || step == first)) fetch(state, 0, state.block, step);
      wait(state, state.slot);  // the block this step reads has landed
      const std::int64_t ahead = step + count - 1;
      if (count > 1 && ahead < last && !(block_of(state, ahead) == block_of(state, ahead - 1))) {
        fetch(state, state.fill, block_of(state, ahead), ahead);
        state.fill = (state.fill + 1) % count;
      }
    }
    body(grid_.point(step), step);
    for (State& state : states_) {
      if (!blocked(state) || !state.operand.output) continue;
      if (!last_step && block_of(state, step + 1) == state.block) continue;  // the same block next step: it stays
      write_back(state, step);
      if (last_step) continue;
      use_slot(state, (state.slot + 1) % buffers(state));
      wait(state, state.slot);  // the slot's earlier write-back has read it
      state.block = block_of(state, step + 1);
      check_revisit(state, state.block, step + 1);
    }
  }
  for (State& state : states_)
    if (blocked(state) && state.operand.output)
      for (int slot = 0; slot < buffers(state); ++slot) wait(state, slot);
}

}  // namespace weft::sim::pallas
