// core_pipeline: every core of a device streams its own tiles HBM -> VMEM -> compute -> HBM,
// computing out = 2 * x + 1. Loads and stores are local DMAs, double-buffered: the load of tile
// t + 1 and the store of tile t - 1 overlap the compute of tile t.
//   tile_offset  0 is right; 1 reads one tile further on (an off-by-one past the end)
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const std::int64_t tiles = core.param("tiles"), rows = core.param("rows"), cols = core.param("cols");
  const std::int64_t offset = core.param("tile_offset");
  auto x = core.hbm<float>("x")[core.core_id()];
  auto out = core.hbm<float>("out")[core.core_id()];
  auto in_buf = core.vmem<float>({2, rows, cols});
  auto out_buf = core.vmem<float>({2, rows, cols});
  const sim::Semaphore in_sem[2] = {core.dma_semaphore(), core.dma_semaphore()};
  const sim::Semaphore out_sem[2] = {core.dma_semaphore(), core.dma_semaphore()};

  std::vector<sim::Dma> loads, stores;
  loads.push_back(core.dma_start(x[offset], in_buf[0], in_sem[0]));
  for (std::int64_t t = 0; t < tiles; ++t) {
    const int slot = static_cast<int>(t % 2);
    if (t + 1 < tiles) loads.push_back(core.dma_start(x[t + 1 + offset], in_buf[1 - slot], in_sem[1 - slot]));
    loads[t].wait();
    const sim::Tile<float> result = core.load(in_buf[slot]) * 2.0f + 1.0f;
    if (t >= 2) stores[t - 2].wait();  // out_buf[slot] is free again
    core.store(out_buf[slot], result);
    stores.push_back(core.dma_start(out_buf[slot], out[t], out_sem[slot]));
  }
  for (std::int64_t t = std::max<std::int64_t>(tiles - 2, 0); t < tiles; ++t) stores[t].wait();
}

}  // namespace

sim::ScenarioDefinition core_pipeline() {
  sim::ScenarioDefinition s;
  s.name = "core_pipeline";
  s.summary = "each core streams tiles HBM -> VMEM -> compute -> HBM, double-buffered local DMAs";
  s.params = {{"tiles", 4}, {"rows", 8}, {"cols", 128}, {"tile_offset", 0}};
  s.setup = [](sim::Host& host) {
    const model::Shape shape{host.num_cores(), host.param("tiles"), host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    for (int d = 0; d < host.num_devices(); ++d) {
      const Eigen::ArrayXf want = host.data<float>("x", d) * 2.0f + 1.0f;
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), want); !wrong.empty()) return wrong;
    }
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
