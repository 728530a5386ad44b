// Flash attention's forward pass as Pallas kernels write it: o = softmax(q k^T * scale) v over a
// grid (q block, kv block), the kv blocks `arbitrary` and innermost, the running row maximum,
// the running row sum and the output accumulator in VMEM scratch (reset at the first kv block,
// the output block written at the last), the q blocks `parallel` (split across the device's
// cores). Each kv step rescales what it accumulated by exp(old max - new max), so the output
// never holds an unnormalised softmax.
//
// Planted bug (param `bug`):
//   1  the kv dimension marked `parallel` too: the megacore deals the grid's points out in
//      runs, so a q block's kv blocks can be split between the cores (one q block: always);
//      each core keeps its own statistics, and both write that output block back (data_race,
//      naming both write-backs; the fix named is the kv dimension made `arbitrary`).
//
// The check compares with attention computed directly in double precision, within 1e-4 of
// each element's magnitude: a wrong block, a lost rescale or a padding read is far outside it.
#include <cmath>
#include <limits>

#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::Semantics;
using Tile = sim::Tile<float>;

constexpr int kv_axis = 1;

struct Sizes {
  std::int64_t seq_q, seq_k, head, bq, bk, bug;
};

Sizes sizes_of(const sim::Core& core) {
  return {core.param("seq_q"), core.param("seq_k"), core.param("head"),
          core.param("bq"),    core.param("bk"),    core.param("bug")};
}

float scale_of(std::int64_t head) { return 1.0F / std::sqrt(static_cast<float>(head)); }

sim::pallas::CallSpec attention_spec(const Sizes& s) {
  sim::pallas::CallSpec spec;
  spec.grid = {s.seq_q / s.bq, s.seq_k / s.bk};
  spec.semantics = {Semantics::parallel, s.bug == 1 ? Semantics::parallel : Semantics::arbitrary};
  spec.in = {sim::pallas::input<float>("q", {s.bq, s.head},
                                       [](const GridIndex& g) {
                                         return Block{g[0], 0};
                                       }),
             sim::pallas::input<float>("k", {s.bk, s.head},
                                       [](const GridIndex& g) {
                                         return Block{g[1], 0};
                                       }),
             sim::pallas::input<float>("v", {s.bk, s.head}, [](const GridIndex& g) {
               return Block{g[1], 0};
             })};
  spec.out = {sim::pallas::output<float>("o", {s.bq, s.head}, [](const GridIndex& g) { return Block{g[0], 0}; })};
  spec.scratch = {sim::pallas::vmem<float>({s.bq, 1}), sim::pallas::vmem<float>({s.bq, 1}),
                  sim::pallas::vmem<float>({s.bq, s.head})};
  return spec;
}

// One kv step: fold this kv block into the running maximum, sum and accumulator.
void attention_step(sim::pallas::Program& p, float scale) {
  sim::Core& core = p.core();
  const auto max_ref = p.scratch<float>(0), sum_ref = p.scratch<float>(1), acc_ref = p.scratch<float>(2);
  const Eigen::Index bq = max_ref.shape().dims[0], head = acc_ref.shape().dims[1];
  if (p.program_id(kv_axis) == 0) {
    core.store(max_ref, Tile::Constant(bq, 1, -std::numeric_limits<float>::infinity()));
    core.store(sum_ref, Tile::Zero(bq, 1));
    core.store(acc_ref, Tile::Zero(bq, head));
  }
  const Tile q = core.load(p.in<float>(0)), k = core.load(p.in<float>(1)), v = core.load(p.in<float>(2));
  const Tile scores = (q.matrix() * k.matrix().transpose()).array() * scale;
  const Tile old_max = core.load(max_ref);
  const Tile new_max = old_max.max(scores.rowwise().maxCoeff().array());
  const Tile weights = (scores - new_max.replicate(1, scores.cols())).exp();
  const Tile rescale = (old_max - new_max).exp();
  const Tile sum = rescale * core.load(sum_ref) + weights.rowwise().sum().array();
  const Tile acc = rescale.replicate(1, head) * core.load(acc_ref) + (weights.matrix() * v.matrix()).array();
  core.store(max_ref, new_max);
  core.store(sum_ref, sum);
  core.store(acc_ref, acc);
  if (p.program_id(kv_axis) == p.num_programs(kv_axis) - 1) core.store(p.out<float>(0), acc / sum.replicate(1, head));
}

// Small values of both signs, different for q, k and v and for each device.
void fill(sim::Host& host, const char* name, int salt) {
  for (int d = 0; d < host.num_devices(); ++d) {
    auto data = host.data<float>(name, d);
    for (Eigen::Index i = 0; i < data.size(); ++i)
      data[i] = static_cast<float>((i * (salt + 2) + d * 3 + salt) % 13 - 6) / 8.0F;
  }
}

std::string check_attention(const sim::Host& host) {
  const std::int64_t seq_q = host.param("seq_q"), seq_k = host.param("seq_k"), head = host.param("head");
  const double scale = scale_of(head);
  for (int d = 0; d < host.num_devices(); ++d) {
    const auto q = host.data<float>("q", d), k = host.data<float>("k", d), v = host.data<float>("v", d);
    const auto o = host.data<float>("o", d);
    for (std::int64_t row = 0; row < seq_q; ++row) {
      std::vector<double> weights(static_cast<std::size_t>(seq_k));
      double most = -std::numeric_limits<double>::infinity(), total = 0;
      for (std::int64_t key = 0; key < seq_k; ++key) {
        double dot = 0;
        for (std::int64_t c = 0; c < head; ++c) dot += static_cast<double>(q[row * head + c]) * k[key * head + c];
        weights[static_cast<std::size_t>(key)] = dot * scale;
        most = std::max(most, dot * scale);
      }
      for (double& w : weights) total += (w = std::exp(w - most));
      for (std::int64_t c = 0; c < head; ++c) {
        double want = 0;
        for (std::int64_t key = 0; key < seq_k; ++key)
          want += weights[static_cast<std::size_t>(key)] * v[key * head + c];
        want /= total;
        const float got = o[row * head + c];
        if (!(std::abs(got - want) <= 1e-4 * (1 + std::abs(want))))
          return "o on device " + std::to_string(d) + ", element " + std::to_string(row * head + c) + ": got " +
                 std::to_string(got) + ", expected " + std::to_string(want) + " (within 1e-4)";
      }
    }
  }
  return "";
}

}  // namespace

sim::ScenarioDefinition pallas_flash_attention() {
  sim::ScenarioDefinition s;
  s.name = "pallas_flash_attention";
  s.summary = "flash attention forward: grid (q block, kv block), running max, sum and accumulator in VMEM scratch";
  s.params = {{"seq_q", 16}, {"seq_k", 32}, {"head", 8}, {"bq", 8}, {"bk", 8}, {"bug", 0}};
  s.setup = [](sim::Host& host) {
    for (const char* extent : {"seq_q", "seq_k", "head"}) positive_param(host, extent);
    dividing_param(host, "bq", "seq_q");
    dividing_param(host, "bk", "seq_k");
    const std::int64_t seq_q = host.param("seq_q"), seq_k = host.param("seq_k"), head = host.param("head");
    host.hbm<float>("q", {seq_q, head});
    host.hbm<float>("k", {seq_k, head});
    host.hbm<float>("v", {seq_k, head});
    host.hbm<float>("o", {seq_q, head});
    fill(host, "q", 0);
    fill(host, "k", 1);
    fill(host, "v", 2);
  };
  s.kernel = [](sim::Core& core) {
    const Sizes sizes = sizes_of(core);
    const float scale = scale_of(sizes.head);
    sim::pallas::launch(core, attention_spec(sizes), [scale](sim::pallas::Program& p) { attention_step(p, scale); });
  };
  s.check = check_attention;
  return s;
}

}  // namespace weft::scenarios
