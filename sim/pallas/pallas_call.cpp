#include "sim/pallas/pallas_call.hpp"

#include <optional>
#include <stdexcept>

namespace weft::sim::pallas {
namespace {

ScalarPrefetch read_prefetch(Core& core, const CallSpec& spec, Location loc) {
  std::vector<std::vector<std::int32_t>> arrays;
  for (const std::string& name : spec.scalar_prefetch) {
    const auto values = core.load(core.hbm<std::int32_t>(name, loc), loc);
    arrays.emplace_back(values.data(), values.data() + values.size());
  }
  return ScalarPrefetch(std::move(arrays));
}

ScratchSet allocate_scratch(Core& core, const std::vector<Scratch>& scratch, Location loc) {
  ScratchSet set;
  for (const Scratch& entry : scratch) {
    std::vector<Semaphore> semaphores;
    model::Buffer* buffer = nullptr;
    switch (entry.kind) {
      case Scratch::Kind::vmem:
        buffer = core.allocate(model::Space::vmem, entry.type, entry.shape, loc);
        break;
      case Scratch::Kind::smem:
        buffer = core.allocate(model::Space::smem, entry.type, entry.shape, loc);
        break;
      case Scratch::Kind::semaphores:
        for (int k = 0; k < entry.count; ++k) semaphores.push_back(core.semaphore(loc));
        break;
      case Scratch::Kind::dma_semaphores:
        for (int k = 0; k < entry.count; ++k) semaphores.push_back(core.dma_semaphore(loc));
        break;
    }
    set.buffers.push_back(buffer);
    set.semaphores.push_back(std::move(semaphores));
  }
  return set;
}

std::vector<Pipeline::Operand> operands_of(Core& core, const CallSpec& spec, bool whole, Location loc) {
  std::vector<Pipeline::Operand> operands;
  const auto add = [&](const Operand& operand, bool output, int index) {
    model::Buffer* array = core.host_buffer(operand.buffer, operand.type, loc);
    Pipeline::Operand entry;
    entry.array = {array, model::Rect::whole(array->info().shape), array->info().shape};
    entry.spec = operand.spec;
    if (whole) entry.spec.memory = Memory::any;
    entry.output = output;
    entry.what = output ? "write-back of out" : "fetch of in";
    entry.operand = index;
    if (output)
      for (const Operand& input : spec.in) entry.aliased = entry.aliased || input.buffer == operand.buffer;
    operands.push_back(std::move(entry));
  };
  for (std::size_t i = 0; i < spec.in.size(); ++i) add(spec.in[i], false, static_cast<int>(i));
  for (std::size_t i = 0; i < spec.out.size(); ++i) add(spec.out[i], true, static_cast<int>(i));
  return operands;
}

// pallas_call's launch (whole: false) and core_map's (whole: every core runs the body once on
// whole arrays).
void run(Core& core, const CallSpec& spec, const Body& body, Location loc, bool whole) {
  const char* call = whole ? "core_map" : "pallas_call";
  std::optional<Grid> grid;
  try {
    grid.emplace(spec.grid, spec.semantics);
  } catch (const std::invalid_argument& error) {
    core.misuse(std::string("runs ") + call, loc, error.what());
  }
  const ScalarPrefetch prefetch = read_prefetch(core, spec, loc);
  const ScratchSet scratch = allocate_scratch(core, spec.scratch, loc);
  Pipeline pipeline(core, *grid, operands_of(core, spec, whole, loc), prefetch, call, loc);
  const auto [first, last] =
      whole ? std::pair<std::int64_t, std::int64_t>{0, 1} : grid->steps_of(core.core_id(), core.num_cores());
  const int inputs = static_cast<int>(spec.in.size());
  pipeline.run(first, last, [&](const GridIndex& point, std::int64_t) {
    Program program(core, *grid, point, pipeline, inputs, scratch, prefetch);
    body(program);
  });
}

}  // namespace

std::function<void(Core&)> pallas_call(CallSpec spec, Body body, Location loc) {
  return [spec = std::move(spec), body = std::move(body), loc](Core& core) { run(core, spec, body, loc, false); };
}

void launch(Core& core, const CallSpec& spec, const Body& body, Location loc) { run(core, spec, body, loc, false); }

std::function<void(Core&)> core_map(CallSpec spec, Body body, Location loc) {
  spec.grid.clear();
  spec.semantics.clear();
  return [spec = std::move(spec), body = std::move(body), loc](Core& core) { run(core, spec, body, loc, true); };
}

void emit_pipeline(Core& core, std::vector<std::int64_t> grid_sizes, std::vector<InnerOperand> in,
                   std::vector<InnerOperand> out, const Body& body, const InnerSplit& split, Location loc) {
  std::optional<Grid> grid;
  try {
    grid.emplace(std::move(grid_sizes), split.semantics);
  } catch (const std::invalid_argument& error) {
    core.misuse("runs emit_pipeline", loc, error.what());
  }
  std::vector<Pipeline::Operand> operands;
  const auto add = [&](InnerOperand& operand, bool output, int index) {
    Pipeline::Operand entry;
    entry.array = operand.array;
    entry.spec = std::move(operand.spec);
    entry.output = output;
    entry.what = output ? "inner pipeline write-back of out" : "inner pipeline fetch of in";
    entry.operand = index;
    operands.push_back(std::move(entry));
  };
  for (std::size_t i = 0; i < in.size(); ++i) add(in[i], false, static_cast<int>(i));
  for (std::size_t i = 0; i < out.size(); ++i) add(out[i], true, static_cast<int>(i));
  const ScalarPrefetch prefetch;
  const ScratchSet scratch;
  Pipeline pipeline(core, *grid, std::move(operands), prefetch, "emit_pipeline", loc);
  const int inputs = static_cast<int>(in.size());
  const auto [first, last] = split.across_cores ? grid->steps_of(core.core_id(), core.num_cores())
                                                : std::pair<std::int64_t, std::int64_t>{0, grid->steps()};
  pipeline.run(first, last, [&](const GridIndex& point, std::int64_t) {
    Program program(core, *grid, point, pipeline, inputs, scratch, prefetch);
    body(program);
  });
}

}  // namespace weft::sim::pallas
