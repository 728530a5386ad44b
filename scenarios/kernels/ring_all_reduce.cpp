// ring_all_reduce: every device ends with the sum of all inputs. Each device forwards tiles
// around the ring through two VMEM buffers (double buffering): at step k it sends buf[k % 2] to
// its right neighbour's buf[(k + 1) % 2] and adds what arrives from the left. A capacity
// semaphore keeps a device from writing into a neighbour's buffer before the neighbour is done
// with it: a device signals its left neighbour each time one of its buffers becomes free.
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
  auto buf = core.vmem<float>({2, mine.size, core.param("cols")});
  auto send = core.dma_semaphore();
  auto recv = core.dma_semaphore();
  auto capacity = core.semaphore();

  core.dma_start(x, buf[0], recv).wait();
  sim::Tile<float> acc = core.load(buf[0]);
  if (n > 1) core.signal(capacity, 1, {.device = left});  // buf[1] is free for the left's step 0
  for (int k = 0; k + 1 < n; ++k) {
    core.wait(capacity);  // the right neighbour's buf[(k + 1) % 2] is free
    auto dma = core.dma_start(buf[k % 2], buf[(k + 1) % 2], recv, send, right);
    dma.wait();
    acc += core.load(buf[(k + 1) % 2]);
    if (k + 2 < n) core.signal(capacity, 1, {.device = left});  // buf[k % 2] is free again
  }
  core.store(out, acc);
}

}  // namespace

sim::ScenarioDefinition ring_all_reduce() {
  sim::ScenarioDefinition s;
  s.name = "ring_all_reduce";
  s.summary = "all-reduce (sum) around a ring, double-buffered in VMEM with a capacity semaphore";
  s.params = {{"rows", 8}, {"cols", 128}};
  s.setup = [](sim::Host& host) {
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    Eigen::ArrayXf sum = Eigen::ArrayXf::Zero(host.data<float>("x", 0).size());
    for (int d = 0; d < host.num_devices(); ++d) sum += host.data<float>("x", d);
    for (int d = 0; d < host.num_devices(); ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), sum); !wrong.empty()) return wrong;
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
