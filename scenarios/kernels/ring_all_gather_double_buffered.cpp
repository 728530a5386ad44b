// ring_all_gather_double_buffered: an all-gather that receives through two VMEM buffers instead
// of straight into the output. At step k a device forwards buf[k % 2] to its right neighbour's
// buf[(k + 1) % 2], then copies what arrived from the left into its output slot. A capacity
// semaphore tells the left neighbour when a buffer may be overwritten.
//   early_reuse  1: the first capacity signal says both buffers are free, so the left
//                neighbour's next DMA overwrites a buffer one step too early (a data race)
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const int n = core.num_devices(), me = core.device_id();
  const int right = (me + 1) % n, left = (me - 1 + n) % n;
  const sim::Range mine = row_block(core, core.param("rows"));
  auto x = core.hbm<float>("x").at({mine});
  auto out = core.hbm<float>("out");
  auto buf = core.vmem<float>({2, mine.size, core.param("cols")}, "receive");
  auto local = core.dma_semaphore("local");
  auto send = core.dma_semaphore("send");
  auto recv = core.dma_semaphore("recv");
  auto capacity = core.semaphore("capacity");

  core.dma_start(x, buf[0], local).wait();
  core.dma_start(x, out.at({me, mine}), local).wait();
  if (n > 1) core.signal(capacity, core.param("early_reuse") != 0 ? 2 : 1, {.device = left});
  for (int k = 0; k + 1 < n; ++k) {
    core.wait(capacity);  // the right neighbour's buf[(k + 1) % 2] is free
    core.dma_start(buf[k % 2], buf[(k + 1) % 2], recv, send, right).wait();
    const int slot = (me - k - 1 + n) % n;
    core.dma_start(buf[(k + 1) % 2], out.at({slot, mine}), local).wait();
    if (k + 2 < n) core.signal(capacity, 1, {.device = left});  // buf[k % 2] is free again
  }
}

}  // namespace

sim::ScenarioDefinition ring_all_gather_double_buffered() {
  sim::ScenarioDefinition s = ring_all_gather();
  s.name = "ring_all_gather_double_buffered";
  s.summary = "all-gather through two VMEM receive buffers and a capacity semaphore (early_reuse=1: too early)";
  s.params = {{"rows", 8}, {"cols", 128}, {"early_reuse", 0}};
  s.kernel = kernel;
  return s;
}

}  // namespace weft::scenarios
