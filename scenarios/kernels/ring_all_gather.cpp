// ring_all_gather: every device ends with every device's input, `out[d] = x of device d`.
// Each device copies its own tile into its slot, then for D-1 steps forwards the slot it holds
// to its neighbour. Each step has its own receive semaphore: DMAs of successive steps may land
// in any order, so one shared semaphore would let a later step's bytes stand for an earlier one.
//   direction  1 sends right (correct); -1 sends left while still reading slots as if from the
//              left, which gathers the wrong data
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const int n = core.num_devices(), me = core.device_id();
  const int next = static_cast<int>((me + core.param("direction") + n) % n);
  const sim::Range mine = row_block(core, core.param("rows"));
  auto x = core.hbm<float>("x").at({mine});
  auto out = core.hbm<float>("out");
  auto local = core.dma_semaphore();
  auto send = core.dma_semaphore();
  std::vector<sim::Semaphore> recv;
  for (int k = 0; k + 1 < n; ++k) recv.push_back(core.dma_semaphore());

  core.dma_start(x, out.at({me, mine}), local).wait();
  for (int k = 0; k + 1 < n; ++k) {
    const int slot = (me - k + n) % n;
    auto dma = core.dma_start(out.at({slot, mine}), out.at({slot, mine}), recv[k], send, next);
    dma.wait();
  }
}

}  // namespace

sim::ScenarioDefinition ring_all_gather() {
  sim::ScenarioDefinition s;
  s.name = "ring_all_gather";
  s.summary = "all-gather around a ring of devices with remote DMAs, one receive semaphore per step";
  s.params = {{"rows", 8}, {"cols", 128}, {"direction", 1}};
  s.setup = [](sim::Host& host) {
    const std::int64_t rows = host.param("rows"), cols = host.param("cols");
    input_and_output(host, {rows, cols}, {host.num_devices(), rows, cols});
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    const int n = host.num_devices();
    for (int d = 0; d < n; ++d) {
      const auto out = host.data<float>("out", d);
      for (int source = 0; source < n; ++source) {
        const auto x = host.data<float>("x", source);
        if (auto wrong =
                first_difference("out[" + std::to_string(source) + "]", d, out.segment(source * x.size(), x.size()), x);
            !wrong.empty())
          return wrong;
      }
    }
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
