// A tiled matmul whose blocks overhang its arrays: z = x @ y with m, n and k that the block
// sizes do not divide (12 x 12 @ 12 x 12 in 8 x 8 blocks: a grid of cdiv(12, 8) along each of
// i, j and k, i and j `parallel`). The pipeline pads the last block along each dimension
// (docs/semantics.md §10). Padding rows of x and padding columns of y only reach the padding of
// an output block, which its write-back drops; padding along k (the last columns of x's block,
// the last rows of y's) is summed into real outputs, so at the last k block the body zeroes the
// columns and rows past k, as a Pallas author must.
//
// Planted bug (param mask = 0): the body does not mask k's padding, which holds NaN (the memory
// policy's fill; garbage on a TPU), so every output of the last k block is NaN: wrong_result,
// whose report names the padded fetch. Under memory.uninitialized = "zero" the padding is 0 and
// the bug goes unseen, as on a TPU whose stale VMEM happened to hold zeros.
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::Semantics;

struct Sizes {
  std::int64_t m, n, k, bm, bn, bk, mask;
};

Sizes sizes_of(const sim::Core& core) {
  return {core.param("m"),  core.param("n"),  core.param("k"),   core.param("bm"),
          core.param("bn"), core.param("bk"), core.param("mask")};
}

std::int64_t blocks(std::int64_t extent, std::int64_t block) { return (extent + block - 1) / block; }

sim::pallas::CallSpec ragged_matmul_spec(const Sizes& s) {
  sim::pallas::CallSpec spec;
  spec.grid = {blocks(s.m, s.bm), blocks(s.n, s.bn), blocks(s.k, s.bk)};
  spec.semantics = {Semantics::parallel, Semantics::parallel, Semantics::arbitrary};
  spec.in = {sim::pallas::input<float>("x", {s.bm, s.bk},
                                       [](const GridIndex& g) {
                                         return Block{g[0], g[2]};
                                       }),
             sim::pallas::input<float>("y", {s.bk, s.bn}, [](const GridIndex& g) {
               return Block{g[2], g[1]};
             })};
  spec.out = {sim::pallas::output<float>("z", {s.bm, s.bn}, [](const GridIndex& g) { return Block{g[0], g[1]}; })};
  spec.scratch = {sim::pallas::vmem<float>({s.bm, s.bn})};
  return spec;
}

void ragged_matmul_body(sim::pallas::Program& p, const Sizes& s) {
  sim::Core& core = p.core();
  const auto acc = p.scratch<float>(0);
  const std::int64_t kk = p.program_id(2);
  if (kk == 0) core.store(acc, sim::Tile<float>::Zero(s.bm, s.bn));
  sim::Tile<float> x = core.load(p.in<float>(0));
  sim::Tile<float> y = core.load(p.in<float>(1));
  const std::int64_t inside = s.k - kk * s.bk;  // columns of x's block (rows of y's) inside the arrays
  if (s.mask != 0 && inside < s.bk) {
    x.rightCols(s.bk - inside).setZero();
    y.bottomRows(s.bk - inside).setZero();
  }
  sim::Tile<float> sum = core.load(acc);
  sum += (x.matrix() * y.matrix()).array();
  core.store(acc, sum);
  if (kk == p.num_programs(2) - 1) core.store(p.out<float>(0), sum);
}

}  // namespace

sim::ScenarioDefinition pallas_ragged_matmul() {
  sim::ScenarioDefinition s;
  s.name = "pallas_ragged_matmul";
  s.summary = "tiled matmul whose last blocks overhang the arrays (padded), k's padding masked by the body";
  s.params = {{"m", 12}, {"n", 12}, {"k", 12}, {"bm", 8}, {"bn", 8}, {"bk", 8}, {"mask", 1}};
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"m", "n", "k", "bm", "bn", "bk"}) positive_param(host, extent);
    const std::int64_t m = host.param("m"), n = host.param("n"), k = host.param("k");
    input_and_output(host, {m, k}, {m, n}, "x", "z");
    host.hbm<float>("y", {k, n});
    for (int d = 0; d < host.num_devices(); ++d) {
      auto y = host.data<float>("y", d);
      for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = static_cast<float>((i % 5) - 2);
    }
  };
  s.kernel = [](sim::Core& core) {
    const Sizes sizes = sizes_of(core);
    sim::pallas::launch(core, ragged_matmul_spec(sizes),
                        [sizes](sim::pallas::Program& p) { ragged_matmul_body(p, sizes); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const std::int64_t m = host.param("m"), n = host.param("n"), k = host.param("k");
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto x = host.data<float>("x", d), y = host.data<float>("y", d), z = host.data<float>("z", d);
      const Matrix want = Eigen::Map<const Matrix>(x.data(), m, k) * Eigen::Map<const Matrix>(y.data(), k, n);
      const Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>> flat(want.data(), want.size());
      if (auto wrong = first_difference("z", d, z, flat); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
