// Small kernels that show the race detector at work, each with a parameter that plants the bug:
//   dma_read_before_wait  read_before_wait = 1 loads a local DMA's target before waiting for it
//   two_cores_one_output  disjoint = 0 lets two cores of a device store the same rectangle
//   all_core_barrier      barrier = 0 drops the all-core barrier before reading the board
#include "scenarios/kernels/host_check.hpp"
#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

void per_core_tiles(sim::Host& host, const char* input, const char* output) {
  const model::Shape shape{host.num_cores(), host.param("rows"), host.param("cols")};
  input_and_output(host, shape, shape, input, output);
}

}  // namespace

sim::ScenarioDefinition dma_read_before_wait() {
  sim::ScenarioDefinition s;
  s.name = "dma_read_before_wait";
  s.summary = "copy HBM -> VMEM with a local DMA, then use the VMEM tile (read_before_wait=1: too early)";
  s.params = {{"rows", 8}, {"cols", 128}, {"read_before_wait", 0}};
  s.setup = [](sim::Host& host) { per_core_tiles(host, "x", "out"); };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x")[core.core_id()];
    auto out = core.hbm<float>("out")[core.core_id()];
    auto staged = core.vmem<float>({core.param("rows"), core.param("cols")});
    auto sem = core.dma_semaphore();
    auto copy = core.dma_start(x, staged, sem);
    sim::Tile<float> tile;
    if (core.param("read_before_wait") != 0) {
      tile = core.load(staged);
      copy.wait();
    } else {
      copy.wait();
      tile = core.load(staged);
    }
    core.store(out, tile);
  };
  s.check = [](const sim::Host& host) {
    for (int d = 0; d < host.num_devices(); ++d)
      if (auto wrong = first_difference("out", d, host.data<float>("out", d), host.data<float>("x", d)); !wrong.empty())
        return wrong;
    return std::string();
  };
  return s;
}

sim::ScenarioDefinition two_cores_one_output() {
  sim::ScenarioDefinition s;
  s.name = "two_cores_one_output";
  s.summary = "the cores of a device store into one HBM output (disjoint=0: the same rectangle)";
  s.params = {{"cols", 128}, {"disjoint", 1}};
  s.setup = [](sim::Host& host) { host.hbm<float>("out", {host.num_cores(), host.param("cols")}); };
  s.kernel = [](sim::Core& core) {
    auto out = core.hbm<float>("out");
    const auto row = core.param("disjoint") != 0 ? core.core_id() : 0;
    core.store(out.at({sim::ds(row, 1)}), sim::Tile<float>::Constant(1, core.param("cols"), float(core.core_id() + 1)));
  };
  s.check = [](const sim::Host& host) {
    const int cores = host.num_cores();
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto out = host.data<float>("out", d);
      const Eigen::Index cols = out.size() / cores;
      Eigen::ArrayXf want(out.size());
      for (int c = 0; c < cores; ++c) want.segment(c * cols, cols).setConstant(float(c + 1));
      if (auto wrong = first_difference("out", d, out, want); !wrong.empty()) return wrong;
    }
    return std::string();
  };
  return s;
}

sim::ScenarioDefinition all_core_barrier() {
  sim::ScenarioDefinition s;
  s.name = "all_core_barrier";
  s.summary = "each core posts a row, an all-core barrier, then every core sums the board (barrier=0: no barrier)";
  s.params = {{"cols", 128}, {"barrier", 1}};
  s.setup = [](sim::Host& host) {
    host.hbm<float>("board", {host.num_cores(), host.param("cols")});
    host.hbm<float>("out", {host.num_cores(), host.param("cols")});
  };
  s.kernel = [](sim::Core& core) {
    const int cores = core.num_cores(), me = core.core_id();
    auto board = core.hbm<float>("board");
    auto out = core.hbm<float>("out");
    auto arrived = core.semaphore();
    core.store(board.at({sim::ds(me, 1)}), sim::Tile<float>::Constant(1, core.param("cols"), float(me + 1)));
    if (core.param("barrier") != 0) {
      for (int other = 0; other < cores; ++other) core.signal(arrived, 1, {.core = other});
      core.wait(arrived, cores);
    }
    const sim::Tile<float> all = core.load(board);
    core.store(out.at({sim::ds(me, 1)}), all.colwise().sum());
  };
  s.check = [](const sim::Host& host) {
    const int cores = host.num_cores();
    const float total = static_cast<float>(cores * (cores + 1) / 2);
    for (int d = 0; d < host.num_devices(); ++d) {
      const auto out = host.data<float>("out", d);
      if (auto wrong = first_difference("out", d, out, Eigen::ArrayXf::Constant(out.size(), total)); !wrong.empty())
        return wrong;
    }
    return std::string();
  };
  return s;
}

}  // namespace weft::scenarios
