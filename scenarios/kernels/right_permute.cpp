// right_permute: every device sends its input `x` to its right neighbour's `out`, after a
// barrier-semaphore handshake with both neighbours. Parameters plant the classic bugs:
//   barrier_waits  how many signals the barrier waits for (2 is right; 3 deadlocks)
//   extra_signal   1: signal the barrier once more at the end (a semaphore leak)
//   skip_wait      1: never wait for the DMA (in flight at exit)
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const int n = core.num_devices(), me = core.device_id();
  const int right = (me + 1) % n, left = (me - 1 + n) % n;
  const sim::Range mine = row_block(core, core.param("rows"));
  auto x = core.hbm<float>("x").at({mine});
  auto out = core.hbm<float>("out").at({mine});
  auto send = core.dma_semaphore();
  auto recv = core.dma_semaphore();

  auto barrier = core.barrier_semaphore();
  core.signal(barrier, 1, {.device = left});
  core.signal(barrier, 1, {.device = right});
  core.wait(barrier, core.param("barrier_waits"));

  auto dma = core.dma_start(x, out, recv, send, right);
  if (core.param("skip_wait") == 0) dma.wait();
  if (core.param("extra_signal") != 0) core.signal(barrier, 1);
}

}  // namespace

sim::ScenarioDefinition right_permute() {
  sim::ScenarioDefinition s;
  s.name = "right_permute";
  s.summary = "each device sends its tile to its right neighbour (barrier, one remote DMA)";
  s.params = {{"rows", 8}, {"cols", 128}, {"barrier_waits", 2}, {"extra_signal", 0}, {"skip_wait", 0}};
  s.setup = [](sim::Host& host) {
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    const int n = host.num_devices();
    for (int d = 0; d < n; ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), host.data<float>("x", (d - 1 + n) % n));
          !wrong.empty())
        return wrong;
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
