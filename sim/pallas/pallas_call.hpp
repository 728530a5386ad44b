#pragma once
// Kernels in the shape Pallas authors write them (the Pallas TPU guides): a launch over a grid
// with BlockSpecs, whose pipeline weft simulates with visible DMAs (pipeline.hpp); a per-core
// form in the shape of `pl.kernel` over a core mesh (`core_map`); and `emit_pipeline`, an inner
// pipeline a body runs over refs of its own.
//
// `pallas_call` and `core_map` return a kernel, which a scenario registers as it would a
// hand-written one (ScenarioDefinition::kernel): every core of every device runs it. Under
// pallas_call each core runs its share of the grid (grid.hpp: the split rule), after reading
// the scalar prefetch arrays (one visible load each) and allocating its scratch and the
// pipeline's slots, in the same order on every core. Mistakes in the launch (a bad grid, an
// unknown buffer, a block of the wrong rank, an index map that throws or gives the wrong number
// of indices) are kernel_errors naming the core, the launch and the line it was written at.

#include <functional>
#include <memory>
#include <string>

#include "sim/api/core.hpp"
#include "sim/pallas/grid.hpp"
#include "sim/pallas/program.hpp"
#include "sim/pallas/spec.hpp"

namespace weft::sim::pallas {

using Body = std::function<void(Program&)>;

// The kernel that runs `body` over `spec`'s grid on every device.
std::function<void(Core&)> pallas_call(CallSpec spec, Body body, Location loc = Location::current());
// The same launch run from inside a kernel of one's own, for a spec that depends on the
// scenario's parameters (`core.param`): `kernel = [](Core& core) { pallas::launch(core, spec_for(core), body); }`.
void launch(Core& core, const CallSpec& spec, const Body& body, Location loc = Location::current());

// The kernel that runs `body` once on every core (pl.kernel over a TensorCore mesh, core_map):
// the operands are whole arrays (Memory::any), the scratch is the core's own, and
// program_id/num_programs are not defined (a grid of no dimensions).
std::function<void(Core&)> core_map(CallSpec spec, Body body, Location loc = Location::current());

// An inner pipeline (pltpu.emit_pipeline) over refs the body holds (usually HBM refs of
// Memory::any operands): `in` and `out` pair each ref with its BlockSpec; each operand has its
// buffer count (Buffered, as a pallas_call's). The steps all run on this core, unless `split`
// spreads its parallel dimensions across the device's cores (emit_pipeline's core_axis_name and
// dimension_semantics): each core then runs its share by grid.hpp's rule, as a megacore splits
// a pallas_call. Its DMAs are named "inner pipeline fetch of in[N]" / "... write-back of out[N]".
struct InnerOperand {
  model::Slice array{};
  BlockSpec spec{};
};
template <class T>
InnerOperand block(const Ref<T>& array, std::vector<std::int64_t> block, IndexMap map, Buffered buffered = {},
                   Location loc = Location::current()) {
  return {array.slice(),
          {std::move(block),
           std::move(map),
           Memory::vmem,
           buffered.buffer_count,
           {loc.file_name(), static_cast<int>(loc.line())}}};
}
struct InnerSplit {
  std::vector<Semantics> semantics{};  // empty: every dimension arbitrary
  bool across_cores = false;
};
void emit_pipeline(Core& core, std::vector<std::int64_t> grid, std::vector<InnerOperand> in,
                   std::vector<InnerOperand> out, const Body& body, const InnerSplit& split = {},
                   Location loc = Location::current());

}  // namespace weft::sim::pallas
