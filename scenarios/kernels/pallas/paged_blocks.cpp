// A paged gather whose pages the pipeline fetches (the Pallas guide "Scalar prefetch and
// block-sparse computation", as paged attention reads its KV pages): a block table, prefetched
// into SMEM, says which page of a pool in HBM holds each slot of each sequence; the grid runs
// over (sequence, slot), sequences parallel, and the pool's BlockSpec fetches one page per grid
// point, its index map reading the table. The body writes the page doubled to its output block.
//
// The block table is the param `block_table`, one list of page numbers per sequence; empty (the
// default) computes one that spreads the pages. Pages outside the pool are not refused: a bad
// table is the bug this kernel exists to show, as the fetch of a block outside the pool
// (out_of_bounds, naming the operand, the grid point, the block and the BlockSpec).
#include "scenarios/kernels/pallas/paged_pool.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::ScalarPrefetch;

}  // namespace

sim::ScenarioDefinition pallas_paged_blocks() {
  sim::ScenarioDefinition s;
  s.name = "pallas_paged_blocks";
  s.summary =
      "paged gather by the pipeline: the pool's index map reads a prefetched block table, one page a grid point";
  s.params = paged_pool::params();
  s.setup = [](sim::Host& host) { paged_pool::setup(host, paged_pool::Pages::any); };
  s.kernel = [](sim::Core& core) {
    const std::int64_t per_sequence = core.param("per_sequence"), page = core.param("page");
    sim::pallas::CallSpec spec;
    spec.grid = {core.param("sequences"), per_sequence};
    spec.semantics = {sim::pallas::Semantics::parallel, sim::pallas::Semantics::arbitrary};
    spec.scalar_prefetch = {"table"};
    spec.in = {
        sim::pallas::input<float>("pool", {1, page}, [per_sequence](const GridIndex& g, const ScalarPrefetch& table) {
          return Block{table(0, g[0] * per_sequence + g[1]), 0};
        })};
    spec.out = {sim::pallas::output<float>("out", {sim::pallas::squeezed, 1, page}, [](const GridIndex& g) {
      return Block{g[0], g[1], 0};
    })};
    sim::pallas::launch(core, spec, [](sim::pallas::Program& p) {
      p.core().store(p.out<float>(0), p.core().load(p.in<float>(0)) * 2);
    });
  };
  s.check = [](const sim::Host& host) { return paged_pool::check(host, paged_pool::Pages::any); };
  return s;
}

}  // namespace weft::scenarios
