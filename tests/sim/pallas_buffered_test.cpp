// The pipeline's buffer counts (BlockSpec pipeline_mode=pl.Buffered(n); sim/pallas/pipeline.hpp):
// how far ahead an input's fetches run with n slots, single buffering, the conditional copies
// (a block index that does not change is not fetched again), and the counts it refuses.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "model/machine.hpp"
#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/pallas/pallas_call.hpp"
#include "tests/sim/plus_one_copy.hpp"

using namespace weft;
using sim::pallas::Block;
using sim::pallas::Buffered;
using sim::pallas::GridIndex;

namespace {

struct Events final : sim::TraceSink {
  std::vector<sim::TraceEvent> all;
  void on_event(const sim::TraceEvent& event) override { all.push_back(event); }

  // The position of the start of the pipeline DMA described as `what` ("fetch of in[0] for grid point (2)").
  std::ptrdiff_t start_of(const std::string& what) const {
    const auto found = std::find_if(all.begin(), all.end(), [&](const sim::TraceEvent& e) {
      return e.kind == sim::TraceEvent::Kind::dma_start && e.origin.what != nullptr &&
             model::describe(e.origin).starts_with(what);
    });
    return found == all.end() ? -1 : found - all.begin();
  }
  // The position of the body's n-th store (from 0).
  std::ptrdiff_t store(int n) const {
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i].kind == sim::TraceEvent::Kind::store && n-- == 0) return static_cast<std::ptrdiff_t>(i);
    return -1;
  }
  std::size_t starts(const std::string& prefix) const {
    return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [&](const sim::TraceEvent& e) {
      return e.kind == sim::TraceEvent::Kind::dma_start && e.origin.what != nullptr &&
             model::describe(e.origin).starts_with(prefix);
    }));
  }
};

sim::Config one_core() {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 1;
  return config;
}

sim::ExecutionResult run(const sim::ScenarioDefinition& scenario, sim::Params params, Events* events = nullptr,
                         std::uint64_t seed = 0) {
  sim::Simulation simulation(one_core(), scenario, std::move(params));
  return simulation.run_seed(seed, events);
}

const sim::ScenarioDefinition& stream() {
  static const auto scenario = scenarios::pallas_buffered_stream();
  return scenario;
}

// x (32 x 8) in row blocks of 8 through a grid of 4, x's block index `g / repeat`, out's `g`;
// x and out with the given buffer counts.
sim::ScenarioDefinition copy_with(int in_buffers, int out_buffers, std::int64_t repeat = 1) {
  sim::ScenarioDefinition s;
  s.name = "copy_with_buffers";
  s.setup = sim::test::plus_one_setup;
  sim::pallas::CallSpec spec;
  spec.grid = {4};
  spec.in = {sim::pallas::input<float>(
      "x", {8, 8},
      [repeat](const GridIndex& g) {
        return Block{g[0] / repeat, 0};
      },
      Buffered{in_buffers})};
  spec.out = {sim::pallas::output<float>(
      "out", {8, 8},
      [](const GridIndex& g) {
        return Block{g[0], 0};
      },
      Buffered{out_buffers})};
  s.kernel = sim::pallas::pallas_call(
      spec, [](sim::pallas::Program& p) { p.core().store(p.out<float>(0), p.core().load(p.in<float>(0)) + 1); });
  s.check = sim::test::plus_one_check;
  return s;
}

}  // namespace

TEST_CASE("With Buffered(3) an input's fetch for step s + 2 starts before the body of step s", "[sim][pallas]") {
  Events three;
  const auto result = run(stream(), stream().params, &three);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  REQUIRE(three.start_of("fetch of in[0] for grid point (2)") >= 0);
  CHECK(three.start_of("fetch of in[0] for grid point (1)") < three.store(0));
  CHECK(three.start_of("fetch of in[0] for grid point (2)") < three.store(0));
  CHECK(three.start_of("fetch of in[0] for grid point (3)") < three.store(1));
  CHECK(three.start_of("fetch of in[0] for grid point (3)") > three.store(0));
  // Double buffering fetches one step ahead only.
  auto params = stream().params;
  params["buffers"] = 2;
  Events two;
  REQUIRE(run(stream(), params, &two).verdict == model::Verdict::ok);
  CHECK(two.start_of("fetch of in[0] for grid point (1)") < two.store(0));
  CHECK(two.start_of("fetch of in[0] for grid point (2)") > two.store(0));
}

TEST_CASE("A Buffered(1) input whose block never changes is fetched once", "[sim][pallas]") {
  Events events;
  REQUIRE(run(stream(), stream().params, &events).verdict == model::Verdict::ok);
  CHECK(events.starts("fetch of in[1]") == 1);  // w
  CHECK(events.starts("fetch of in[0]") == 4);  // x, a block per step
  CHECK(events.starts("write-back of out[0]") == 4);
}

TEST_CASE("A Buffered(1) input is fetched at its own step, after the body before it", "[sim][pallas]") {
  Events events;
  const auto result = run(copy_with(1, 2), {}, &events);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  CHECK(events.start_of("fetch of in[0] for grid point (1)") > events.store(0));
  CHECK(events.start_of("fetch of in[0] for grid point (1)") < events.store(1));
}

TEST_CASE("Under Buffered(3) a block index that does not change is neither fetched nor waited again", "[sim][pallas]") {
  Events events;
  const auto result = run(copy_with(3, 2, 2), {}, &events);  // x's blocks 0, 0, 1, 1
  CHECK(result.verdict == model::Verdict::wrong_result);     // out rows 8..15 get x's rows 0..7
  CHECK(events.starts("fetch of in[0]") == 2);
  CHECK(events.start_of("fetch of in[0] for grid point (2)") < events.store(0));
}

TEST_CASE("Every buffer count of an input, and 1 or 2 of an output, copy right under every schedule", "[sim][pallas]") {
  for (const auto& [in, out] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 2}}) {
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      const auto result = run(copy_with(in, out), {}, nullptr, seed);
      INFO("Buffered(" << in << ") in, Buffered(" << out << ") out, seed " << seed << ": " << result.details);
      CHECK(result.verdict == model::Verdict::ok);
    }
  }
}

TEST_CASE("A buffer count below 1, or above 2 on an output, is a kernel_error naming the operand", "[sim][pallas]") {
  SECTION("none") {
    const auto result = run(copy_with(0, 2), {});
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK_THAT(result.details, Catch::Contains("in[0] 'x' has Buffered(0): a buffer count must be at least 1"));
  }
  SECTION("three on an output") {
    const auto result = run(copy_with(2, 3), {});
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK_THAT(result.details, Catch::Contains("out[0] 'out' has Buffered(3): an output has 1 or 2 buffers"));
  }
}

TEST_CASE("More buffers than VMEM holds is out_of_memory, not a host that runs out", "[sim][pallas]") {
  const auto result = run(copy_with(1 << 30, 2), {});
  CHECK(result.verdict == model::Verdict::out_of_memory);
}

TEST_CASE("An inner pipeline takes its operands' buffer counts", "[sim][pallas]") {
  sim::ScenarioDefinition s = copy_with(2, 2);
  sim::pallas::CallSpec spec;
  spec.in = {sim::pallas::any<float>("x")};
  spec.out = {sim::pallas::any<float>("out")};
  s.kernel = sim::pallas::core_map(spec, [](sim::pallas::Program& p) {
    const auto map = sim::pallas::index_map([](const GridIndex& g) { return Block{g[0], 0}; });
    sim::pallas::emit_pipeline(p.core(), {4}, {sim::pallas::block(p.in<float>(0), {8, 8}, map, Buffered{3})},
                               {sim::pallas::block(p.out<float>(0), {8, 8}, map, Buffered{1})},
                               [](sim::pallas::Program& inner) {
                                 sim::Core& c = inner.core();
                                 c.store(inner.out<float>(0), c.load(inner.in<float>(0)) + 1);
                               });
  });
  Events events;
  const auto result = run(s, {}, &events);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  CHECK(events.start_of("inner pipeline fetch of in[0] for grid point (2)") < events.store(0));
  CHECK(events.start_of("inner pipeline fetch of in[0] for grid point (3)") > events.store(0));
}
