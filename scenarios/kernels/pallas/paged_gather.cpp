// A paged gather in the shape of paged attention's KV fetch (the Pallas guide "Scalar prefetch
// and block-sparse computation"): a block table, prefetched into SMEM, says which pages of a
// pool in HBM make up each sequence; the grid runs over sequences (parallel, split across
// cores), and the body copies its sequence's pages from HBM with manual DMAs into VMEM scratch,
// one DMA semaphore per copy, waits for them, and writes the pages (doubled) to its output block
// (the sequence dimension squeezed away).
//
// The block table is the param `block_table`, one list of page numbers per sequence
// ([[0, 5], [3, 2], ...]); empty (the default) computes one that spreads the pages.
//
// Planted bugs (param `bug`):
//   1  every copy signals one shared DMA semaphore and the body waits once, for one page's bytes:
//      the first copy to land lets it through while the others are still writing their pages
//      (data_race), and their bytes stay in the semaphore;
//   2  the body waits for each page with the descriptor of the whole scratch (all its pages'
//      bytes) on that page's own semaphore: an over-wait no copy can satisfy (deadlock, whose
//      wait-for graph says nothing more can arrive, and is no cycle).
#include "scenarios/kernels/pallas/paged_pool.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;

void gather_pages(sim::pallas::Program& p, std::int64_t per_sequence, std::int64_t bug) {
  const bool shared_semaphore = bug == 1;
  sim::Core& core = p.core();
  const auto pool = p.in<float>(0);  // the whole pool, in HBM
  const auto pages = p.scratch<float>(0);
  std::vector<sim::Dma> copies;
  for (std::int64_t slot = 0; slot < per_sequence; ++slot) {
    const std::int32_t page = p.prefetch()(0, p.program_id(0) * per_sequence + slot);
    const sim::Semaphore sem = p.semaphore(1, shared_semaphore ? 0 : static_cast<int>(slot));
    copies.push_back(core.dma_start(pool[page], pages[slot], sem));
  }
  if (shared_semaphore) {
    copies.front().wait();  // one page's bytes: any one copy satisfies it
  } else if (bug == 2) {
    for (std::int64_t slot = 0; slot < per_sequence; ++slot)
      core.describe_dma(pages, pages, p.semaphore(1, static_cast<int>(slot))).wait();  // the whole scratch's bytes
  } else {
    for (sim::Dma& copy : copies) copy.wait();
  }
  core.store(p.out<float>(0), core.load(pages) * 2);
}

}  // namespace

sim::ScenarioDefinition pallas_paged_gather() {
  sim::ScenarioDefinition s;
  s.name = "pallas_paged_gather";
  s.summary = "paged gather: a prefetched block table, manual DMAs of pages from HBM, one semaphore per copy";
  s.params = paged_pool::params();
  s.params["bug"] = 0;
  s.setup = [](sim::Host& host) { paged_pool::setup(host, paged_pool::Pages::in_pool); };
  s.kernel = [](sim::Core& core) {
    const std::int64_t per_sequence = core.param("per_sequence"), page = core.param("page");
    const std::int64_t bug = core.param("bug");
    sim::pallas::CallSpec spec;
    spec.grid = {core.param("sequences")};
    spec.semantics = {sim::pallas::Semantics::parallel};
    spec.scalar_prefetch = {"table"};
    spec.in = {sim::pallas::any<float>("pool")};
    spec.out = {sim::pallas::output<float>("out", {sim::pallas::squeezed, per_sequence, page}, [](const GridIndex& g) {
      return Block{g[0], 0, 0};
    })};
    spec.scratch = {sim::pallas::vmem<float>({per_sequence, page}),
                    sim::pallas::dma_semaphores(static_cast<int>(per_sequence))};
    sim::pallas::launch(core, spec,
                        [per_sequence, bug](sim::pallas::Program& p) { gather_pages(p, per_sequence, bug); });
  };
  s.check = [](const sim::Host& host) { return paged_pool::check(host, paged_pool::Pages::in_pool); };
  return s;
}

}  // namespace weft::scenarios
