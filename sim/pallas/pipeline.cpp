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

}  // namespace

Pipeline::Pipeline(Core& core, const Grid& grid, std::vector<Operand> operands, const ScalarPrefetch& prefetch,
                   std::string call, Location loc)
    : core_(core), grid_(grid), prefetch_(prefetch), call_(std::move(call)), loc_(loc) {
  states_.reserve(operands.size());
  for (Operand& operand : operands) {
    State state;
    state.operand = std::move(operand);
    if (blocked(state)) {
      const auto& block = state.operand.spec.block;
      const model::Shape& array = state.operand.array.view;
      if (static_cast<int>(block.size()) != array.rank)
        misuse(operand_name(state.operand) + " has " + std::to_string(array.rank) + " dimensions, its block " +
               std::to_string(block.size()));
      if (!state.operand.spec.index_map) misuse(operand_name(state.operand) + " has a block but no index map");
      for (const std::int64_t extent : block) {
        if (extent == squeezed) continue;
        if (extent <= 0) misuse(operand_name(state.operand) + " has a block extent of " + std::to_string(extent));
        state.block_view.dims[static_cast<std::size_t>(state.block_view.rank++)] = extent;
      }
      const model::ElementType type = state.operand.array.buffer->info().type;
      for (int slot = 0; slot < 2; ++slot) {
        model::Buffer* buffer = core_.allocate(model::Space::vmem, type, state.block_view, loc_);
        state.slots[static_cast<std::size_t>(slot)] = {buffer, model::Rect::whole(state.block_view), state.block_view};
        state.semaphores[static_cast<std::size_t>(slot)] = core_.dma_semaphore(loc_);
      }
    }
    states_.push_back(std::move(state));
  }
}

const model::Slice& Pipeline::current(int i) const {
  const State& state = states_[static_cast<std::size_t>(i)];
  return blocked(state) ? state.slots[static_cast<std::size_t>(state.slot)] : state.operand.array;
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

model::Slice Pipeline::block_slice(const State& state, const Block& block) const {
  model::Slice slice = state.operand.array;
  slice.view = state.block_view;
  for (int d = 0; d < block.rank; ++d) {
    const std::int64_t extent = state.operand.spec.block[static_cast<std::size_t>(d)];
    const std::int64_t size = extent == squeezed ? 1 : extent;
    slice.rect.start[d] += block[d] * size;
    slice.rect.size[d] = size;
  }
  return slice;
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
  auto& target = state.slots[static_cast<std::size_t>(slot)];
  state.pending[static_cast<std::size_t>(slot)] =
      core_.start_copy(block_slice(state, block), target, state.semaphores[static_cast<std::size_t>(slot)],
                       origin(state, step, block), loc_);
}

void Pipeline::write_back(State& state, std::int64_t step) {
  const auto slot = static_cast<std::size_t>(state.slot);
  state.pending[slot] =
      core_.start_copy(state.slots[slot], block_slice(state, state.block), state.semaphores[slot], origin(state, step, state.block), loc_);
  state.written.emplace_back(state.block, step);
}

void Pipeline::wait(State& state, int slot) {
  auto& pending = state.pending[static_cast<std::size_t>(slot)];
  if (!pending) return;
  pending->wait_recv(loc_);
  pending.reset();
}

void Pipeline::check_revisit(State& state, const Block& block, std::int64_t step) {
  if (state.operand.aliased) return;
  const auto earlier = std::find_if(state.written.begin(), state.written.end(),
                                    [&](const auto& written) { return written.first == block; });
  if (earlier == state.written.end()) return;
  const std::string revisit = operand_name(state.operand) + " comes back to block " + block_text(block) + " at grid point " +
                              to_string(grid_.point(step)) + " after writing it back at grid point " +
                              to_string(grid_.point(earlier->second));
  if (core_.jax_compat())  // interpret mode refuses it
    misuse(revisit + ": the block was not read back in, so the earlier result is overwritten (make the steps that map "
                     "to one output block consecutive)");
  // A TPU goes on: the slot is not read back in, so the body sees what the slot held before, and
  // the block is written back again (all of it) when its index changes.
  const model::SourceLine spec = state.operand.spec.line;
  core_.note_for_wrong_result(revisit + " (" + (spec.line > 0 ? "its BlockSpec at " + model::to_string(spec) + ", in " : "") +
                              "the " + call_ + " at " +
                              model::to_string(model::SourceLine{loc_.file_name(), static_cast<int>(loc_.line())}) +
                              "): on a TPU the block is not read back in, so what the body accumulated into it before is "
                              "lost; make the steps that map to one output block consecutive");
}

void Pipeline::run(std::int64_t first, std::int64_t last,
                   const std::function<void(const GridIndex&, std::int64_t)>& body) {
  if (first >= last) return;
  for (State& state : states_) {
    if (!blocked(state)) continue;
    state.slot = 0;
    state.block = block_at(state, first);
    if (!state.operand.output) fetch(state, 0, state.block, first);
  }
  for (std::int64_t step = first; step < last; ++step) {
    const bool last_step = step + 1 == last;
    std::vector<std::optional<Block>>& next = next_;  // kept: a grid step allocates nothing
    next.assign(states_.size(), std::nullopt);
    for (std::size_t i = 0; i < states_.size(); ++i)
      if (blocked(states_[i]) && !last_step) next[i] = block_at(states_[i], step + 1);
    for (std::size_t i = 0; i < states_.size(); ++i) {
      State& state = states_[i];
      if (!blocked(state) || state.operand.output) continue;
      wait(state, state.slot);  // the block this step reads has landed
      if (next[i] && !(*next[i] == state.block)) fetch(state, 1 - state.slot, *next[i], step + 1);
    }
    body(grid_.point(step), step);
    for (std::size_t i = 0; i < states_.size(); ++i) {
      State& state = states_[i];
      if (!blocked(state)) continue;
      if (next[i] && *next[i] == state.block) continue;  // the same block next step: it stays
      if (state.operand.output) {
        write_back(state, step);
        if (last_step) continue;
        state.slot = 1 - state.slot;
        wait(state, state.slot);  // the slot's earlier write-back has read it
        check_revisit(state, *next[i], step + 1);
      } else if (!last_step) {
        state.slot = 1 - state.slot;
      }
      if (next[i]) state.block = *next[i];
    }
  }
  for (State& state : states_)
    if (blocked(state) && state.operand.output) {
      wait(state, 0);
      wait(state, 1);
    }
}

}  // namespace weft::sim::pallas
