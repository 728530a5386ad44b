// Column sums over a ragged row dimension: out[0, :] = sum over rows of x, for x of 20 rows in
// blocks of 8 (a grid of cdiv(20, 8) = 3 row blocks, arbitrary, under 2 column blocks, parallel:
// one per core of a megacore). The output block stays resident over the row blocks and
// accumulates (zeroed by the body at the first). The last row block overhangs x: the pipeline
// pads it (docs/semantics.md §10), and the body zeroes the rows past the array before summing,
// as a Pallas author must.
//
// Planted bug (param mask = 0): the body sums the padding rows too. They hold NaN (the memory
// policy's fill; garbage on a TPU), so every column sum is NaN: wrong_result, whose report
// names the padded fetch.
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::Semantics;

struct Sizes {
  std::int64_t rows, cols, block_rows, block_cols, mask;
};

Sizes sizes_of(const sim::Core& core) {
  return {core.param("rows"), core.param("cols"), core.param("block_rows"), core.param("block_cols"),
          core.param("mask")};
}

sim::pallas::CallSpec ragged_reduction_spec(const Sizes& s) {
  sim::pallas::CallSpec spec;
  spec.grid = {s.cols / s.block_cols, (s.rows + s.block_rows - 1) / s.block_rows};
  spec.semantics = {Semantics::parallel, Semantics::arbitrary};
  spec.in = {sim::pallas::input<float>("x", {s.block_rows, s.block_cols}, [](const GridIndex& g) {
    return Block{g[1], g[0]};
  })};
  spec.out = {sim::pallas::output<float>("out", {1, s.block_cols}, [](const GridIndex& g) { return Block{0, g[0]}; })};
  return spec;
}

void ragged_reduction_body(sim::pallas::Program& p, const Sizes& s) {
  sim::Core& core = p.core();
  const auto out = p.out<float>(0);
  const std::int64_t block = p.program_id(1);
  if (block == 0) core.store(out, sim::Tile<float>::Zero(1, s.block_cols));
  sim::Tile<float> x = core.load(p.in<float>(0));
  const std::int64_t inside = s.rows - block * s.block_rows;  // rows of this block inside x
  if (s.mask != 0 && inside < s.block_rows) x.bottomRows(s.block_rows - inside).setZero();
  core.store(out, core.load(out) + x.colwise().sum());
}

}  // namespace

sim::ScenarioDefinition pallas_ragged_reduction() {
  sim::ScenarioDefinition s;
  s.name = "pallas_ragged_reduction";
  s.summary = "column sums over a row dimension the block does not divide (padded), the padding rows masked";
  s.params = {{"rows", 20}, {"cols", 16}, {"block_rows", 8}, {"block_cols", 8}, {"mask", 1}};
  s.setup = [](sim::Host& host) {
    positive_param(host, "rows");
    positive_param(host, "block_rows");
    positive_param(host, "cols");
    dividing_param(host, "block_cols", "cols");
    input_and_output(host, {host.param("rows"), host.param("cols")}, {1, host.param("cols")});
  };
  s.kernel = [](sim::Core& core) {
    const Sizes sizes = sizes_of(core);
    sim::pallas::launch(core, ragged_reduction_spec(sizes),
                        [sizes](sim::pallas::Program& p) { ragged_reduction_body(p, sizes); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const std::int64_t rows = host.param("rows"), cols = host.param("cols");
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto x = host.data<float>("x", d), out = host.data<float>("out", d);
      using Matrix = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      const Eigen::Array<float, 1, Eigen::Dynamic> want =
          Eigen::Map<const Matrix>(x.data(), rows, cols).colwise().sum();
      if (auto wrong = first_difference("out", d, out, want); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
