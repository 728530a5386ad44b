// A stream of row blocks through a small weight matrix, with the pipeline modes a TPU kernel
// uses for it (BlockSpec `pipeline_mode=pl.Buffered(n)`): out = x @ w over a grid of row blocks,
// x triple-buffered (Buffered{3}: the fetch of the block two steps ahead runs while the body
// works on this one) and w, whose block index never changes, single-buffered (Buffered{1}:
// fetched once, at the first step, and never again). Param `buffers` is x's buffer count.
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"
#include "sim/pallas/pallas_call.hpp"

namespace weft::scenarios {
namespace {

using sim::pallas::Block;
using sim::pallas::Buffered;
using sim::pallas::GridIndex;

sim::pallas::CallSpec buffered_stream_spec(std::int64_t rows, std::int64_t block, std::int64_t width, int buffers) {
  sim::pallas::CallSpec spec;
  spec.grid = {rows / block};
  spec.in = {sim::pallas::input<float>(
                 "x", {block, width},
                 [](const GridIndex& g) {
                   return Block{g[0], 0};
                 },
                 Buffered{buffers}),
             sim::pallas::input<float>(
                 "w", {width, width},
                 [](const GridIndex&) {
                   return Block{0, 0};
                 },
                 Buffered{1})};
  spec.out = {sim::pallas::output<float>("out", {block, width}, [](const GridIndex& g) { return Block{g[0], 0}; })};
  return spec;
}

}  // namespace

sim::ScenarioDefinition pallas_buffered_stream() {
  sim::ScenarioDefinition s;
  s.name = "pallas_buffered_stream";
  s.summary = "row blocks through a weight matrix: x in pl.Buffered(3), the constant w in pl.Buffered(1)";
  s.params = {{"rows", 32}, {"block", 8}, {"width", 8}, {"buffers", 3}};
  s.setup = [](sim::Host& host) {
    positive_param(host, "width");
    positive_param(host, "buffers");
    positive_param(host, "rows");
    dividing_param(host, "block", "rows");
    const std::int64_t rows = host.param("rows"), width = host.param("width");
    input_and_output(host, {rows, width}, {rows, width});
    host.hbm<float>("w", {width, width});
    for (int d = 0; d < host.num_devices(); ++d) {
      auto w = host.data<float>("w", d);
      for (Eigen::Index i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i % 3) - 1);
    }
  };
  s.kernel = [](sim::Core& core) {
    const auto spec = buffered_stream_spec(core.param("rows"), core.param("block"), core.param("width"),
                                           static_cast<int>(core.param("buffers")));
    sim::pallas::launch(core, spec, [](sim::pallas::Program& p) {
      sim::Core& c = p.core();
      c.store(p.out<float>(0), (c.load(p.in<float>(0)).matrix() * c.load(p.in<float>(1)).matrix()).array());
    });
  };
  s.check = [](const sim::Host& host) -> std::string {
    const std::int64_t rows = host.param("rows"), width = host.param("width");
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto x = host.data<float>("x", d), w = host.data<float>("w", d), out = host.data<float>("out", d);
      const Matrix want =
          Eigen::Map<const Matrix>(x.data(), rows, width) * Eigen::Map<const Matrix>(w.data(), width, width);
      const Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>> flat(want.data(), want.size());
      if (auto wrong = first_difference("out", d, out, flat); !wrong.empty()) return wrong;
    }
    return "";
  };
  return s;
}

}  // namespace weft::scenarios
