// An inner pipeline (pltpu.emit_pipeline) in a per-core kernel (core_map): each core takes its
// share of the rows of an HBM array and streams it through VMEM in blocks, y = 2 x + 1, the
// inner pipeline fetching the next block while the body works on the current one and writing
// each result block back.
//
// Planted bug (param `bug` = 1): the cores' shares overlap by one block (core c starts one block
// early), so two cores write that block back without ordering (data_race).
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;

void stream_rows(sim::pallas::Program& p, std::int64_t block_rows, bool overlap) {
  sim::Core& core = p.core();
  const auto x = p.in<float>(0), y = p.out<float>(0);
  const std::int64_t rows = x.shape().dims[0], cols = x.shape().dims[1];
  const std::int64_t share = rows / core.num_cores();
  const std::int64_t first = std::max<std::int64_t>(0, core.core_id() * share - (overlap ? block_rows : 0));
  const std::int64_t count = core.core_id() * share + share - first;
  const auto map = sim::pallas::index_map([](const GridIndex& g) { return Block{g[0], 0}; });
  sim::pallas::emit_pipeline(
      core, {count / block_rows}, {sim::pallas::block(x.at({sim::ds(first, count)}), {block_rows, cols}, map)},
      {sim::pallas::block(y.at({sim::ds(first, count)}), {block_rows, cols}, map)}, [](sim::pallas::Program& inner) {
        sim::Core& c = inner.core();
        c.store(inner.out<float>(0), c.load(inner.in<float>(0)) * 2 + 1);
      });
}

}  // namespace

sim::ScenarioDefinition pallas_inner_pipeline() {
  sim::ScenarioDefinition s;
  s.name = "pallas_inner_pipeline";
  s.summary = "core_map kernel streaming its share of an HBM array through an inner pipeline (emit_pipeline)";
  s.params = {{"rows", 32}, {"cols", 128}, {"block_rows", 8}, {"bug", 0}};
  s.setup = [](sim::Host& host) {
    positive_param(host, "cols");
    dividing_param(host, "block_rows", "rows");
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  sim::pallas::CallSpec spec;
  spec.in = {sim::pallas::any<float>("x")};
  spec.out = {sim::pallas::any<float>("out")};
  s.kernel = sim::pallas::core_map(
      spec, [](sim::pallas::Program& p) { stream_rows(p, p.core().param("block_rows"), p.core().param("bug") != 0); });
  s.check = [](const sim::Host& host) -> std::string {
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto x = host.data<float>("x", d);
      const Eigen::Array<float, Eigen::Dynamic, 1> want = x * 2 + 1;
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), want); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
