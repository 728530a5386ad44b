// A kernel library as a user builds it (weft::plugin: <weft/weft.hpp>, no weft code of its
// own), whose kernels reach weft in every way a kernel can:
//   plugin_every_verb  calls every verb of Core, Ref, Dma and Host: each must resolve to the
//                      loading weft (a missing one fails the load, naming the symbol)
//   plugin_throw       throws its own exception type on device 1 while the others wait: the
//                      message crosses into weft, and weft's teardown unwinds the others'
//                      frames in this library
//   plugin_recursion   overflows its fiber stack in this library's code: weft's guard page and
//                      signal handler end it
//   plugin_spin        spins in this library's code without a visible operation: the watchdog
//                      ends it
#include <stdexcept>

#include <weft/weft.hpp>

namespace {

using weft::sim::Core;
using weft::sim::Host;
using weft::sim::Tile;

float input(int device, Eigen::Index i) { return static_cast<float>(device * 1000 + i); }

void every_verb(Core& core) {
  const int me = core.device_id(), n = core.num_devices();
  const int left = (me + n - 1) % n;
  const int right = core.device_at({(core.mesh_coords()[0] + 1) % core.mesh()[0]});
  core.check(core.core_id() == 0 && core.num_cores() == 1, "one core per device");
  const std::int64_t rows = core.param("rows");
  auto x = core.hbm<float>("x");
  auto out = core.hbm<float>("out");
  auto scratch = core.vmem<float>({rows, 128});
  auto shared = core.vmem_shared<float>({rows, 128});
  auto flag = core.smem<std::int32_t>({1});
  auto local = core.dma_semaphore();
  auto send = core.dma_semaphore();
  auto recv = core.dma_semaphore();
  auto count = core.semaphore();

  core.dma_start(x, scratch, local).wait();
  Tile<float> tile;
  core.load_into(scratch, tile);
  core.store(shared, tile * 2);
  core.store(scratch.at({weft::sim::ds(0, rows), weft::sim::all}), core.load(shared) / 2);
  core.store(flag, Tile<std::int32_t>::Constant(1, 1, 7));
  core.check(core.load(flag)(0, 0) == 7 && core.load(x[0])(0, 0) == input(me, 0), "loads read back the stores");
  core.signal(count, 2);
  core.check(core.read(count) == 2, "read sees the signal");
  core.wait(count, 2);

  auto ready = core.barrier_semaphore();
  core.signal(ready, 1, {.device = left});
  core.wait(ready, 1);
  auto copy = core.dma_start(scratch, out, recv, send, right);
  copy.wait_send();
  copy.wait_recv();
}

weft::sim::ScenarioDefinition every_verb_scenario() {
  weft::sim::ScenarioDefinition s;
  s.name = "plugin_every_verb";
  s.summary = "every verb of the kernel API, from a kernel library";
  s.params = {{"rows", 4}};
  s.setup = [](Host& host) {
    const weft::model::Shape shape{host.param("rows"), 128};
    host.hbm<float>("x", shape);
    host.hbm<float>("out", shape);
    for (int d = 0; d < host.num_devices(); ++d) {
      auto x = host.data<float>("x", d);
      for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = input(d, i);
    }
  };
  s.kernel = every_verb;
  s.check = [](const Host& host) -> std::string {
    const int n = host.num_devices();
    for (int d = 0; d < n; ++d) {
      const auto out = host.data<float>("out", d);
      for (Eigen::Index i = 0; i < out.size(); ++i)
        if (out[i] != input((d + n - 1) % n, i)) return "out[" + std::to_string(i) + "] on device " + std::to_string(d);
    }
    return "";
  };
  return s;
}

struct LibraryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

__attribute__((noinline)) std::int64_t descend(std::int64_t depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  return descend(depth + 1) + frame[0];
}

weft::sim::ScenarioDefinition failing(std::string name, std::function<void(Core&)> kernel) {
  weft::sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = "a kernel library's kernel that fails";
  s.expect = weft::model::Verdict::kernel_error;
  s.kernel = std::move(kernel);
  return s;
}

weft::sim::ScenarioRegistry scenarios() {
  return {every_verb_scenario(),
          failing("plugin_throw",
                  [](Core& core) {
                    auto token = core.semaphore();
                    if (core.device_id() == 1) throw LibraryError("thrown by the kernel library");
                    core.wait(token);
                  }),
          failing("plugin_recursion",
                  [](Core& core) {
                    auto token = core.semaphore();
                    if (core.device_id() == 0) core.check(descend(0) >= 0, "unreachable");
                    core.wait(token);
                  }),
          failing("plugin_spin", [](Core& core) {
            auto token = core.semaphore();
            if (core.device_id() == 0) {
              volatile std::uint64_t spins = 0;
              for (;;) spins = spins + 1;
            }
            core.wait(token);
          })};
}

}  // namespace

WEFT_PLUGIN(scenarios)
