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
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::ScalarPrefetch;

// The block table, flattened: sequence s's slot i at s * per_sequence + i.
std::vector<std::int32_t> page_table(const sim::Host& host) {
  const std::int64_t sequences = host.param("sequences"), per_sequence = host.param("per_sequence");
  const auto given = host.param_value("block_table").as_integer_lists();
  if (!given.empty() && static_cast<std::int64_t>(given.size()) != sequences)
    throw std::invalid_argument("params.block_table has " + std::to_string(given.size()) + " rows for " +
                                std::to_string(sequences) + " sequences");
  std::vector<std::int32_t> table;
  for (std::int64_t sequence = 0; sequence < sequences; ++sequence) {
    const auto row = static_cast<std::size_t>(sequence);
    if (!given.empty() && static_cast<std::int64_t>(given[row].size()) != per_sequence)
      throw std::invalid_argument("params.block_table row " + std::to_string(sequence) + " has " +
                                  std::to_string(given[row].size()) + " pages, not per_sequence = " +
                                  std::to_string(per_sequence));
    for (std::int64_t slot = 0; slot < per_sequence; ++slot)
      table.push_back(static_cast<std::int32_t>(given.empty() ? (sequence * 3 + slot * 5) % host.param("pages")
                                                              : given[row][static_cast<std::size_t>(slot)]));
  }
  return table;
}

}  // namespace

sim::ScenarioDefinition pallas_paged_blocks() {
  sim::ScenarioDefinition s;
  s.name = "pallas_paged_blocks";
  s.summary = "paged gather by the pipeline: the pool's index map reads a prefetched block table, one page a grid point";
  s.params = {{"sequences", 4}, {"per_sequence", 2}, {"page", 8}, {"pages", 6}, {"block_table", sim::ParamValue::list({})}};
  s.setup = [](sim::Host& host) {
    for (const char* count : {"sequences", "per_sequence", "page", "pages"}) positive_param(host, count);
    const std::int64_t sequences = host.param("sequences"), per_sequence = host.param("per_sequence");
    const std::int64_t page = host.param("page"), pages = host.param("pages");
    const std::vector<std::int32_t> table = page_table(host);
    host.hbm<float>("pool", {pages, page});
    host.hbm<std::int32_t>("table", {sequences * per_sequence});
    host.hbm<float>("out", {sequences, per_sequence, page});
    for (int d = 0; d < host.num_devices(); ++d) {
      auto pool = host.data<float>("pool", d);
      for (Eigen::Index i = 0; i < pool.size(); ++i) pool[i] = input_value(d, i);
      auto slots = host.data<std::int32_t>("table", d);
      for (Eigen::Index i = 0; i < slots.size(); ++i) slots[i] = table[static_cast<std::size_t>(i)];
    }
  };
  s.kernel = [](sim::Core& core) {
    const std::int64_t per_sequence = core.param("per_sequence"), page = core.param("page");
    sim::pallas::CallSpec spec;
    spec.grid = {core.param("sequences"), per_sequence};
    spec.semantics = {sim::pallas::Semantics::parallel, sim::pallas::Semantics::arbitrary};
    spec.scalar_prefetch = {"table"};
    spec.in = {sim::pallas::input<float>("pool", {1, page}, [per_sequence](const GridIndex& g, const ScalarPrefetch& table) {
      return Block{table(0, g[0] * per_sequence + g[1]), 0};
    })};
    spec.out = {sim::pallas::output<float>("out", {sim::pallas::squeezed, 1, page},
                                           [](const GridIndex& g) { return Block{g[0], g[1], 0}; })};
    sim::pallas::launch(core, spec, [](sim::pallas::Program& p) {
      p.core().store(p.out<float>(0), p.core().load(p.in<float>(0)) * 2);
    });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const std::int64_t page = host.param("page");
    const std::vector<std::int32_t> table = page_table(host);
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto pool = host.data<float>("pool", d), out = host.data<float>("out", d);
      Eigen::Array<float, Eigen::Dynamic, 1> want(out.size());
      for (Eigen::Index i = 0; i < want.size(); ++i)
        want[i] = 2 * pool[table[static_cast<std::size_t>(i / page)] * page + i % page];
      if (auto wrong = first_difference("out", d, out, want); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
