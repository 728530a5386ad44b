// A kernel of one's own: every device clears its output, then copies its input into the output
// of its right neighbour with a remote DMA. A handshake on the barrier semaphore makes the copy
// wait until the neighbour has cleared: without it (params.handshake = 0) the copy and the
// clearing store race.
#include <weft/weft.hpp>

namespace {

using weft::sim::Core;
using weft::sim::Host;

float input(int device, Eigen::Index i) { return static_cast<float>(device * 1000 + i); }

void kernel(Core& core) {
  const int n = core.num_devices(), me = core.device_id();
  const int left = (me + n - 1) % n, right = (me + 1) % n;
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto send = core.dma_semaphore();
  auto recv = core.dma_semaphore();

  core.store(out, weft::sim::Tile<float>::Zero(core.param("rows"), core.param("cols")));
  if (core.param("handshake") != 0) {
    auto ready = core.barrier_semaphore();
    core.signal(ready, 1, {.device = left});  // my output is clear: my left neighbour may copy
    core.wait(ready, 1);                      // my right neighbour's output is clear
  }
  core.dma_start(x, out, recv, send, right).wait();
}

}  // namespace

weft::sim::ScenarioDefinition neighbour_shift() {
  weft::sim::ScenarioDefinition s;
  s.name = "neighbour_shift";
  s.summary = "each device clears its output, then copies its input to its right neighbour's";
  s.params = {{"rows", 8}, {"cols", 128}, {"handshake", 1}};
  s.setup = [](Host& host) {
    const weft::model::Shape shape{host.param("rows"), host.param("cols")};
    host.hbm<float>("x", shape);
    host.hbm<float>("out", shape);
    for (int d = 0; d < host.num_devices(); ++d) {
      auto x = host.data<float>("x", d);
      for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = input(d, i);
    }
  };
  s.kernel = kernel;
  s.check = [](const Host& host) -> std::string {
    const int n = host.num_devices();
    for (int d = 0; d < n; ++d) {
      const auto out = host.data<float>("out", d);
      for (Eigen::Index i = 0; i < out.size(); ++i)
        if (out[i] != input((d + n - 1) % n, i))
          return "out[" + std::to_string(i) + "] on device " + std::to_string(d) + " is " + std::to_string(out[i]);
    }
    return "";
  };
  return s;
}

// The entry point the stock weft looks for when it loads this file as a kernel library.
weft::sim::ScenarioRegistry own_scenarios() { return {neighbour_shift()}; }
WEFT_PLUGIN(own_scenarios)
