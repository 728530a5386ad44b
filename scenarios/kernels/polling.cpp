// Kernels that poll instead of waiting: what the spin reduction is for (sim/engine/poll_window.hpp).
//   polling       every device copies its tile into its right neighbour's `out`, then polls its
//                 own receive semaphore's count (Core::read) until the left neighbour's copy has
//                 landed, and only then waits. `need` 2 polls for twice the bytes any copy
//                 brings: nothing can satisfy it, a deadlock naming the polling line.
//   polling_flag  on each device core 0 stores its tile into `out` and then raises a flag in
//                 hbm; every other core polls the flag, then copies `out` into its row of `seen`.
//                 The flag is read without synchronisation (run it with race detection off).
//                 `raise` 0: the flag is never raised, a deadlock naming the polling line.
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void polling_kernel(sim::Core& core) {
  const int right = (core.device_id() + 1) % core.num_devices();
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto send = core.dma_semaphore();
  auto recv = core.dma_semaphore();
  const std::int64_t bytes = core.param("rows") * core.param("cols") * static_cast<std::int64_t>(sizeof(float));

  auto copy = core.dma_start(x, out, recv, send, right);
  copy.wait_send();
  while (core.read(recv) < bytes * core.param("need")) {
  }
  copy.wait_recv();
}

void polling_flag_kernel(sim::Core& core) {
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto flag = core.hbm<std::int32_t>("flag");
  if (core.core_id() == 0) {
    core.store(out, core.load(x));
    if (core.param("raise") == 1) core.store(flag, sim::Tile<std::int32_t>::Constant(1, 1, 1));
    return;
  }
  while (core.load(flag)(0, 0) == 0) {
  }
  core.store(core.hbm<float>("seen").at({sim::ds(core.core_id(), 1)}), core.load(out));
}

std::string neighbour_tile_arrived(const sim::Host& host) {
  const int n = host.num_devices();
  for (int d = 0; d < n; ++d)
    if (auto wrong = first_difference("out", d, host.data<float>("out", d), host.data<float>("x", (d - 1 + n) % n));
        !wrong.empty())
      return wrong;
  return {};
}

std::string every_poller_saw_the_tile(const sim::Host& host) {
  for (int d = 0; d < host.num_devices(); ++d) {
    const auto seen = host.data<float>("seen", d);
    const auto x = host.data<float>("x", d);
    for (int c = 1; c < host.num_cores(); ++c)
      if (auto wrong = first_difference("seen", d, seen.segment(c * x.size(), x.size()), x); !wrong.empty())
        return wrong + " (core " + std::to_string(c) + "'s row)";
  }
  return {};
}

}  // namespace

sim::ScenarioDefinition polling() {
  sim::ScenarioDefinition s;
  s.name = "polling";
  s.summary = "each device copies its tile to its right neighbour, which polls its semaphore's count until it lands";
  s.params = {{"rows", 8}, {"cols", 128}, {"need", 1}};
  s.setup = [](sim::Host& host) {
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = polling_kernel;
  s.check = neighbour_tile_arrived;
  return s;
}

sim::ScenarioDefinition polling_flag() {
  sim::ScenarioDefinition s;
  s.name = "polling_flag";
  s.summary =
      "core 0 stores a tile and raises a flag in hbm; the device's other cores poll the flag, then read the tile";
  s.params = {{"cols", 8}, {"raise", 1}};
  s.setup = [](sim::Host& host) {
    input_and_output(host, {1, host.param("cols")}, {1, host.param("cols")});
    host.hbm<float>("seen", {host.num_cores(), host.param("cols")});
    host.hbm<std::int32_t>("flag", {1, 1});
    for (int d = 0; d < host.num_devices(); ++d) {
      host.data<std::int32_t>("flag", d).setZero();
      host.data<float>("seen", d).setZero();
    }
  };
  s.kernel = polling_flag_kernel;
  s.check = every_poller_saw_the_tile;
  return s;
}

}  // namespace weft::scenarios
