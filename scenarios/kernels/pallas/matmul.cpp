// A tiled matrix multiplication as the Pallas guide "Matrix multiplication" writes it: z = x @ y
// over a grid (i, j, k) of bm x bk and bk x bn blocks, an accumulator in VMEM scratch zeroed at
// k = 0 and written to the output block at the last k, i and j `parallel` (split across the
// device's cores), k `arbitrary`. The output block of (i, j) stays resident over k, and is
// written back once, after its last k.
//
// Planted bugs (param `bug`):
//   1  the output index map ignores i: both cores of a megacore own output block (0, j), and
//      their write-backs race (data_race, naming both write-backs and their grid points);
//   2  the grid runs k outermost (k, i, j): the steps of one output block are no longer
//      consecutive, so the pipeline comes back to a block it has written back, which is not
//      read back in (wrong_result; kernel_error under compat.profile = "jax").
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::Semantics;

struct Sizes {
  std::int64_t m, n, k, bm, bn, bk, bug;
};

Sizes sizes_of(const sim::Core& core) {
  return {core.param("m"),  core.param("n"),  core.param("k"),  core.param("bm"),
          core.param("bn"), core.param("bk"), core.param("bug")};
}

sim::pallas::CallSpec matmul_spec(const Sizes& s) {
  sim::pallas::CallSpec spec;
  if (s.bug == 2) {  // k outermost: (k, i, j)
    spec.grid = {s.k / s.bk, s.m / s.bm, s.n / s.bn};
    spec.in = {sim::pallas::input<float>("x", {s.bm, s.bk},
                                         [](const GridIndex& g) {
                                           return Block{g[1], g[0]};
                                         }),
               sim::pallas::input<float>("y", {s.bk, s.bn}, [](const GridIndex& g) {
                 return Block{g[0], g[2]};
               })};
    spec.out = {sim::pallas::output<float>("z", {s.bm, s.bn}, [](const GridIndex& g) { return Block{g[1], g[2]}; })};
  } else {
    spec.grid = {s.m / s.bm, s.n / s.bn, s.k / s.bk};
    spec.semantics = {Semantics::parallel, Semantics::parallel, Semantics::arbitrary};
    spec.in = {sim::pallas::input<float>("x", {s.bm, s.bk},
                                         [](const GridIndex& g) {
                                           return Block{g[0], g[2]};
                                         }),
               sim::pallas::input<float>("y", {s.bk, s.bn}, [](const GridIndex& g) {
                 return Block{g[2], g[1]};
               })};
    const bool shared = s.bug == 1;
    spec.out = {sim::pallas::output<float>("z", {s.bm, s.bn}, [shared](const GridIndex& g) {
      return Block{shared ? 0 : g[0], g[1]};
    })};
  }
  spec.scratch = {sim::pallas::vmem<float>({s.bm, s.bn})};
  return spec;
}

void matmul_body(sim::pallas::Program& p, int k_axis) {
  sim::Core& core = p.core();
  const auto acc = p.scratch<float>(0);
  if (p.program_id(k_axis) == 0) core.store(acc, sim::Tile<float>::Zero(acc.shape().dims[0], acc.shape().dims[1]));
  sim::Tile<float> sum = core.load(acc);
  sum += (core.load(p.in<float>(0)).matrix() * core.load(p.in<float>(1)).matrix()).array();
  core.store(acc, sum);
  if (p.program_id(k_axis) == p.num_programs(k_axis) - 1) core.store(p.out<float>(0), sum);
}

}  // namespace

sim::ScenarioDefinition pallas_matmul() {
  sim::ScenarioDefinition s;
  s.name = "pallas_matmul";
  s.summary = "tiled matmul as a pallas_call: grid (i, j, k), accumulator scratch, i and j split across cores";
  s.params = {{"m", 16}, {"n", 16}, {"k", 16}, {"bm", 8}, {"bn", 8}, {"bk", 8}, {"bug", 0}};
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"m", "n", "k"}) positive_param(host, extent);
    dividing_param(host, "bm", "m");
    dividing_param(host, "bn", "n");
    dividing_param(host, "bk", "k");
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
    const int k_axis = sizes.bug == 2 ? 0 : 2;
    sim::pallas::launch(core, matmul_spec(sizes), [k_axis](sim::pallas::Program& p) { matmul_body(p, k_axis); });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const std::int64_t m = host.param("m"), n = host.param("n"), k = host.param("k");
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto x = host.data<float>("x", d), y = host.data<float>("y", d), z = host.data<float>("z", d);
      const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> xm(x.data(), m, k);
      const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> ym(y.data(), k, n);
      const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> want = xm * ym;
      const Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>> flat(want.data(), want.size());
      if (auto wrong = first_difference("z", d, z, flat); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
