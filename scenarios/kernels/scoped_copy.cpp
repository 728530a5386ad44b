// scoped_copy: each core copies its device's `x` into a VMEM buffer of a run_scoped scope (Pallas'
// run_scoped), adds one to what landed and stores it into its row block of `out`. Parameter:
//   late_wait  0 (right): the copy is waited for inside the scope; 1: only after the scope
//              ended, when its target is already freed: the scope's end finds the copy in
//              flight (dma_in_flight, naming the scope), or, if it landed unawaited, races with it
#include <optional>

#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void kernel(sim::Core& core) {
  const std::int64_t cols = core.param("cols");
  const sim::Range mine = row_block(core, core.param("rows"));
  auto x = core.hbm<float>("x").at({mine});
  auto recv = core.dma_semaphore();
  const bool late = core.param("late_wait") == 1;
  std::optional<sim::Dma> copy;
  core.run_scoped([&] {
    auto staged = core.vmem<float>({mine.size, cols});
    copy = core.dma_start(x, staged, recv);
    if (late) return;
    copy->wait();
    core.store(core.hbm<float>("out").at({mine}), (core.load(staged).array() + 1.0f).matrix());
  });
  if (late) copy->wait();  // too late: the scope's buffer is gone
}

}  // namespace

sim::ScenarioDefinition scoped_copy() {
  sim::ScenarioDefinition s;
  s.name = "scoped_copy";
  s.summary =
      "each core stages its rows of x in run_scoped VMEM, adds one and stores them (a DMA that outlives its scope)";
  s.params = {{"rows", 8}, {"cols", 128}, {"late_wait", 0}};
  s.setup = [](sim::Host& host) {
    const model::Shape shape{host.param("rows"), host.param("cols")};
    input_and_output(host, shape, shape);
  };
  s.kernel = kernel;
  s.check = [](const sim::Host& host) {
    for (int d = 0; d < host.num_devices(); ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), host.data<float>("x", d).array() + 1.0f);
          !wrong.empty())
        return wrong;
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
