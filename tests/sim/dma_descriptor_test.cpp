// A copy described by the core that did not start it (Core::describe_dma): its receiver waits on
// its own side with the copy's byte count, as Pallas lets a receiver build the descriptor of its
// neighbour's remote copy.

#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::explore;
using sim::test::machine_of;
using sim::test::run;

namespace {

// Device 0 sends its 8x128 `x` to device 1's `out` and waits only for its send side; device 1,
// which starts nothing, describes the copy (its source `rows` rows of `x`) and waits for it on
// its receive side, then reads what landed.
sim::ScenarioDefinition one_way(int described_rows, int source_rows = 8) {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) {
    host.hbm<float>("x", {8, 128});
    host.hbm<float>("out", {8, 128});
  };
  s.kernel = [described_rows, source_rows](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto out = core.hbm<float>("out");
    auto send = core.dma_semaphore();
    auto recv = core.dma_semaphore();
    if (core.device_id() == 0) {
      core.store(x, sim::Tile<float>::Constant(8, 128, 7));
      core.dma_start(x, out, recv, send, 1).wait_send();
    } else {
      auto copy = core.describe_dma(x.at({sim::ds(0, source_rows), sim::all}),
                                    out.at({sim::ds(0, described_rows), sim::all}), recv, send, {.device = 1});
      CHECK(copy.id() == -1);
      CHECK(copy.bytes() == source_rows * 128 * 4);
      copy.wait_recv();
      core.check((core.load(out) == 7.0f).all(), "the copy landed");
    }
  };
  return s;
}

}  // namespace

TEST_CASE("A receiver waits for a copy it did not start through its description", "[sim][dma]") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const auto result = run(one_way(8), machine_of(2, 1, true), seed);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
  const auto report = explore(one_way(8), machine_of(2, 1, true));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
}

TEST_CASE("A description of fewer bytes than the copy leaves the rest on the semaphore", "[sim][dma]") {
  // It waits for half the bytes; the copy lands whole (one write phase), so the wait goes
  // through only then, and the other half stays on device 1's receive cell at the end.
  const auto result = run(one_way(4, 4), machine_of(2, 1, true));
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::semaphore_leak);
  CHECK(result.details.find("device 1 core 0: count 2048") != std::string::npos);  // 4096 landed, 2048 waited for
}

TEST_CASE("A description whose source and target differ in size is a kernel error naming its line", "[sim][dma]") {
  const auto result = run(one_way(4, 8), machine_of(2, 1, true));
  CHECK(result.verdict == model::Verdict::kernel_error);
  CHECK(result.details.find("describes a DMA at dma_descriptor_test.cpp:") != std::string::npos);
  CHECK(result.details.find("its source has 1024 elements and its target 512: no copy moves that") !=
        std::string::npos);
}
