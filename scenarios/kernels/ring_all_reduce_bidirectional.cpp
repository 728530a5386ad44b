// ring_all_reduce_bidirectional: the all-reduce of ring_all_reduce.cpp with tiles going both
// ways around the ring at once, on two cores per device: core 0 forwards clockwise (to the right
// neighbour's core 0) for n / 2 steps, core 1 counter-clockwise (to the left neighbour's core 1)
// for (n - 1) / 2 steps, each through its own two VMEM receive buffers and capacity semaphore.
// Core 1 then hands its partial sum to core 0 through a shared VMEM buffer, and core 0 writes
// the total, the sum of all n inputs.
//   early_capacity  1: the capacity signal ("my buffer is free again") is sent one line early,
//                   right after starting the DMA that still reads that buffer instead of after
//                   waiting for it, so the neighbour's next DMA may overwrite the buffer while
//                   it is read (a data race, in either direction)
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const int n = core.num_devices(), me = core.device_id();
  const bool clockwise = core.core_id() == 0;
  const int to = clockwise ? (me + 1) % n : (me - 1 + n) % n, from = clockwise ? (me - 1 + n) % n : (me + 1) % n;
  const int steps = clockwise ? n / 2 : (n - 1) / 2;
  const bool early = core.param("early_capacity") != 0;
  const std::int64_t rows = core.param("rows"), cols = core.param("cols");
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto buf = core.vmem<float>({2, rows, cols}, "receive");
  auto partial = core.vmem_shared<float>({rows, cols}, "partial");
  auto send = core.dma_semaphore("send");
  auto recv = core.dma_semaphore("recv");
  auto capacity = core.semaphore("capacity");
  auto handed = core.semaphore("partial handed over");

  core.dma_start(x, buf[0], recv).wait();
  sim::Tile<float> acc = core.load(buf[0]);
  if (!clockwise) acc.setZero();                              // core 0 counts this device's own tile
  if (steps > 0) core.signal(capacity, 1, {.device = from});  // buf[1] is free for step 0
  for (int k = 0; k < steps; ++k) {
    const bool again = k + 1 < steps;
    core.wait(capacity);  // `to`'s buf[(k + 1) % 2] is free
    auto dma = core.dma_start(buf[k % 2], buf[(k + 1) % 2], recv, send, to);
    if (early && again) core.signal(capacity, 1, {.device = from});  // too early: the DMA still reads buf[k % 2]
    dma.wait();
    if (!early && again) core.signal(capacity, 1, {.device = from});  // buf[k % 2] is free again
    acc += core.load(buf[(k + 1) % 2]);
  }
  if (!clockwise) {
    core.store(partial, acc);
    core.signal(handed, 1, {.core = 0});
    return;
  }
  core.wait(handed);
  acc += core.load(partial);
  core.store(out, acc);
}

}  // namespace

sim::ScenarioDefinition ring_all_reduce_bidirectional() {
  sim::ScenarioDefinition s = ring_all_reduce();
  s.name = "ring_all_reduce_bidirectional";
  s.summary = "all-reduce both ways around the ring, a core per direction (early_capacity=1: capacity signalled early)";
  s.params = {{"rows", 8}, {"cols", 128}, {"early_capacity", 0}};
  s.kernel = kernel;
  return s;
}

}  // namespace weft::scenarios
