// The Pallas launch (sim/pallas/): the grid and its split across cores, the pipeline's copies
// (what is fetched and written back at which grid step, and in which order), scalar prefetch,
// aliasing, and the bugs it must report.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model/machine.hpp"
#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "scheduler/strategies/random.hpp"
#include "sim/pallas/pallas_call.hpp"

using namespace weft;
using sim::pallas::Block;
using sim::pallas::Grid;
using sim::pallas::GridIndex;
using sim::pallas::Semantics;

namespace {

// Every event of one execution, in order.
struct Events final : sim::TraceSink {
  std::vector<sim::TraceEvent> all;
  void on_event(const sim::TraceEvent& event) override { all.push_back(event); }
  // The pipeline DMA starts, as "fetch of in[0] for grid point (0, 0, 1)".
  std::vector<std::string> pipeline_starts() const {
    std::vector<std::string> starts;
    for (const auto& event : all)
      if (event.kind == sim::TraceEvent::Kind::dma_start && event.origin.what != nullptr)
        starts.push_back(model::describe(event.origin));
    return starts;
  }
};

sim::Config machine(int cores) {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = cores;
  return config;
}

const sim::ScenarioDefinition& matmul() {
  static const auto scenario = scenarios::pallas_matmul();
  return scenario;
}

sim::ExecutionResult run(const sim::ScenarioDefinition& scenario, const sim::Config& config, sim::Params params,
                         Events* events = nullptr, std::uint64_t seed = 0) {
  sim::Simulation simulation(config, scenario, std::move(params));
  return simulation.run_seed(seed, events);
}

std::size_t count(const std::vector<std::string>& items, const std::string& prefix) {
  return static_cast<std::size_t>(
      std::count_if(items.begin(), items.end(), [&](const std::string& item) { return item.starts_with(prefix); }));
}

}  // namespace

TEST_CASE("A grid steps through its points in row-major order", "[sim][pallas]") {
  const Grid grid({2, 3}, {});
  CHECK(grid.steps() == 6);
  CHECK(sim::pallas::to_string(grid.point(0)) == "(0, 0)");
  CHECK(sim::pallas::to_string(grid.point(4)) == "(1, 1)");
  CHECK(sim::pallas::to_string(grid.point(5)) == "(1, 2)");
}

TEST_CASE("Parallel dimensions are dealt out to cores in contiguous runs, arbitrary ones stay on one core",
          "[sim][pallas]") {
  using Steps = std::pair<std::int64_t, std::int64_t>;
  const Grid two_by_two({2, 2, 3}, {Semantics::parallel, Semantics::parallel, Semantics::arbitrary});
  CHECK(two_by_two.steps_of(0, 2) == Steps{0, 6});  // parallel points (0,0), (0,1), 3 steps each
  CHECK(two_by_two.steps_of(1, 2) == Steps{6, 12});
  const Grid three({3, 2}, {Semantics::parallel, Semantics::arbitrary});
  CHECK(three.steps_of(0, 2) == Steps{0, 4});  // ceil(3 / 2) = 2 points for core 0
  CHECK(three.steps_of(1, 2) == Steps{4, 6});
  CHECK(three.steps_of(0, 4) == Steps{0, 2});
  CHECK(three.steps_of(3, 4) == Steps{6, 6});  // nothing left for the last core
  const Grid serial({4}, {});
  CHECK(serial.steps_of(0, 2) == Steps{0, 4});
  CHECK(serial.steps_of(1, 2) == Steps{4, 4});
}

TEST_CASE("A grid refuses a parallel dimension after an arbitrary one, and more than four dimensions",
          "[sim][pallas]") {
  CHECK_THROWS_WITH(Grid({2, 2}, {Semantics::arbitrary, Semantics::parallel}),
                    Catch::Contains("parallel after an arbitrary one"));
  CHECK_THROWS_WITH(Grid({1, 1, 1, 1, 1}, {}), Catch::Contains("at most 4"));
  CHECK_THROWS_WITH(Grid({2}, {Semantics::parallel, Semantics::parallel}), Catch::Contains("semantics for 2"));
}

TEST_CASE(
    "The pipeline fetches an input block when its index changes and writes an output block back once per residency",
    "[sim][pallas]") {
  Events events;
  const auto result = run(matmul(), machine(1), matmul().params, &events);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  const auto starts = events.pipeline_starts();
  // Grid (2, 2, 2): x's block (i, k) and y's (k, j) change at every step; z's (i, j) every other.
  CHECK(count(starts, "fetch of in[0]") == 8);
  CHECK(count(starts, "fetch of in[1]") == 8);
  CHECK(count(starts, "write-back of out[0]") == 4);
  CHECK(count(starts, "write-back of out[0] for grid point (0, 0, 1)") == 1);  // after the last k of block (0, 0)
  CHECK(count(starts, "write-back of out[0] for grid point (0, 0, 0)") == 0);
}

TEST_CASE("The next step's inputs are fetched before the body runs on the current ones", "[sim][pallas]") {
  Events events;
  REQUIRE(run(matmul(), machine(1), matmul().params, &events).verdict == model::Verdict::ok);
  const auto& all = events.all;
  const auto fetch_of_step_1 = std::find_if(all.begin(), all.end(), [](const sim::TraceEvent& e) {
    return e.kind == sim::TraceEvent::Kind::dma_start && e.origin.what != nullptr && e.origin.step == 1;
  });
  const auto first_body_store = std::find_if(
      all.begin(), all.end(), [](const sim::TraceEvent& e) { return e.kind == sim::TraceEvent::Kind::store; });
  REQUIRE(fetch_of_step_1 != all.end());
  REQUIRE(first_body_store != all.end());
  CHECK(fetch_of_step_1 < first_body_store);
}

TEST_CASE("Two cores split the parallel grid points: each fetches and writes back only its own blocks",
          "[sim][pallas]") {
  Events events;
  const auto result = run(matmul(), machine(2), matmul().params, &events);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  std::map<std::uint32_t, std::vector<std::string>> by_core;
  for (const auto& event : events.all)
    if (event.kind == sim::TraceEvent::Kind::dma_start && event.origin.what != nullptr)
      by_core[event.actor.index].push_back(model::describe(event.origin));
  REQUIRE(by_core.size() == 2);
  CHECK(count(by_core[0], "write-back of out[0] for grid point (0, ") == 2);  // (i, j) = (0, 0), (0, 1)
  CHECK(count(by_core[1], "write-back of out[0] for grid point (1, ") == 2);
  CHECK(count(by_core[0], "write-back of out[0] for grid point (1, ") == 0);
}

TEST_CASE("Two cores owning one output block race on its write-backs, named by operand and grid point",
          "[sim][pallas]") {
  auto params = matmul().params;
  params["bug"] = 1;
  const auto result = run(matmul(), machine(2), params);
  CHECK(result.verdict == model::Verdict::data_race);
  CHECK_THAT(result.details, Catch::Contains("write-back of out[0] 'z' for grid point ("));
}

TEST_CASE("Coming back to an output block loses what was accumulated into it, as on a TPU", "[sim][pallas]") {
  auto params = matmul().params;
  params["bug"] = 2;
  const auto result = run(matmul(), machine(1), params);
  CHECK(result.verdict == model::Verdict::wrong_result);
  CHECK_THAT(result.details, Catch::Contains("what the hardware did that may explain it:"));
  CHECK_THAT(result.details, Catch::Contains("out[0] 'z' comes back to block (0, 0) at grid point (1, 0, 0)"));
  CHECK_THAT(result.details,
             Catch::Contains("after writing it back at grid point (0, 0, 0) (its BlockSpec at matmul.cpp:"));
  CHECK_THAT(result.details, Catch::Contains(", in the pallas_call at matmul.cpp:"));
  CHECK_THAT(result.details, Catch::Contains("on a TPU the block is not read back in"));
}

TEST_CASE("Under interpret mode's quirks a revisit is a kernel_error naming both grid points", "[sim][pallas]") {
  auto params = matmul().params;
  params["bug"] = 2;
  sim::Config config = machine(1);
  config.machine.compat = model::CompatProfile::jax;
  const auto result = run(matmul(), config, params);
  CHECK(result.verdict == model::Verdict::kernel_error);
  CHECK_THAT(result.details, Catch::Contains("runs pallas_call at matmul.cpp:"));
  CHECK_THAT(result.details, Catch::Contains("out[0] 'z' comes back to block (0, 0) at grid point (1, 0, 0)"));
  CHECK_THAT(result.details, Catch::Contains("after writing it back at grid point (0, 0, 0)"));
}

namespace {

// A block gather with scalar prefetch: out block i is in block order[i] (the prefetch array).
// With `alias`, the output is the input itself (input_output_aliases), revisiting blocks.
sim::ScenarioDefinition gather(bool alias) {
  sim::ScenarioDefinition s;
  s.name = "gather";
  s.setup = [](sim::Host& host) {
    host.hbm<float>("x", {4, 8});
    host.hbm<float>("out", {4, 8});
    host.hbm<std::int32_t>("order", {4});
    auto order = host.data<std::int32_t>("order", 0);
    order << 2, 0, 3, 1;
    auto x = host.data<float>("x", 0);
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i / 8);  // row r holds r
  };
  sim::pallas::CallSpec spec;
  spec.grid = {4};
  spec.scalar_prefetch = {"order"};
  spec.in = {sim::pallas::input<float>("x", {1, 8}, [](const GridIndex& g, const sim::pallas::ScalarPrefetch& p) {
    return Block{p(0, g[0]), 0};
  })};
  const char* target = alias ? "x" : "out";
  spec.out = {
      sim::pallas::output<float>(target, {1, 8}, [alias](const GridIndex& g, const sim::pallas::ScalarPrefetch& p) {
        return Block{alias ? p(0, g[0] % 2) : g[0], 0};
      })};
  s.kernel = sim::pallas::pallas_call(
      spec, [](sim::pallas::Program& p) { p.core().store(p.out<float>(0), p.core().load(p.in<float>(0)) + 100); });
  return s;
}

}  // namespace

TEST_CASE("Index maps read scalar prefetch: a block gather copies the blocks in the prefetched order",
          "[sim][pallas]") {
  const auto scenario = gather(false);
  std::vector<float> out;
  sim::Simulation simulation(machine(1), scenario, {});
  const sim::Simulation::Inspector inspect = [&](const model::Machine& m) {
    const model::Buffer* buffer = m.memory().find_named(0, "out");
    out.assign(buffer->data<float>(), buffer->data<float>() + 32);
  };
  scheduler::RandomStrategy strategy(0);
  const auto result = simulation.run(strategy, nullptr, &inspect);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  CHECK(out[0] == 102);  // out row 0 <- x row order[0] = 2
  CHECK(out[8] == 100);  // row 1 <- x row 0
  CHECK(out[16] == 103);
  CHECK(out[31] == 101);
}

TEST_CASE("An output aliasing an input may come back to a block (no revisit error)", "[sim][pallas]") {
  const auto scenario = gather(true);
  const auto result = run(scenario, machine(1), {});
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
}

TEST_CASE("A launch's mistakes are kernel_errors naming the launch's line", "[sim][pallas]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("x", {4, 8}); };
  SECTION("a block of the wrong rank") {
    sim::pallas::CallSpec spec;
    spec.grid = {4};
    spec.in = {sim::pallas::input<float>("x", {1}, [](const GridIndex& g) { return Block{g[0]}; })};
    s.kernel = sim::pallas::pallas_call(spec, [](sim::pallas::Program&) {});
    const auto result = run(s, machine(1), {});
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK_THAT(result.details, Catch::Contains("runs pallas_call at pallas_test.cpp:"));
    CHECK_THAT(result.details, Catch::Contains("in[0] 'x' has 2 dimensions, its block 1"));
  }
  SECTION("an index map that gives too few indices") {
    sim::pallas::CallSpec spec;
    spec.grid = {4};
    spec.in = {sim::pallas::input<float>("x", {1, 8}, [](const GridIndex& g) { return Block{g[0]}; })};
    s.kernel = sim::pallas::pallas_call(spec, [](sim::pallas::Program&) {});
    const auto result = run(s, machine(1), {});
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK_THAT(result.details, Catch::Contains("gave 1 block indices at grid point (0) for a block of 2 dimensions"));
  }
  SECTION("a bad grid") {
    sim::pallas::CallSpec spec;
    spec.grid = {2, 2};
    spec.semantics = {Semantics::arbitrary, Semantics::parallel};
    s.kernel = sim::pallas::pallas_call(spec, [](sim::pallas::Program&) {});
    const auto result = run(s, machine(1), {});
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK_THAT(result.details, Catch::Contains("parallel after an arbitrary one"));
  }
}

TEST_CASE("A pipeline fetch or write-back out of bounds is named by operand, grid point, block and BlockSpec",
          "[sim][pallas]") {
  // An index map one block too far: grid point (3) asks for block (4, 0) of a 4-block array.
  sim::ScenarioDefinition scenario;
  scenario.name = "index_map_too_far";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {32, 128});
    host.hbm<float>("y", {32, 128});
  };
  const auto too_far = [](const GridIndex& g) { return Block{g[0] + 1, 0}; };
  const auto in_place = [](const GridIndex& g) { return Block{g[0], 0}; };
  const auto copy = [](sim::pallas::Program& p) { p.core().store(p.out<float>(0), p.core().load(p.in<float>(0))); };
  sim::pallas::CallSpec spec;
  spec.grid = {4};
  SECTION("a fetch") {
    const int line = __LINE__ + 1;
    spec.in = {sim::pallas::input<float>("x", {8, 128}, too_far)};
    spec.out = {sim::pallas::output<float>("y", {8, 128}, in_place)};
    scenario.kernel = sim::pallas::pallas_call(spec, copy);
    const auto result = run(scenario, machine(1), {});
    CHECK(result.verdict == model::Verdict::out_of_bounds);
    CHECK_THAT(result.details,
               Catch::Contains("starts the fetch of in[0] 'x' for grid point (3), block (4, 0) (BlockSpec at "
                               "pallas_test.cpp:" +
                               std::to_string(line) + "), a DMA reading [32:40, 0:128]"));
  }
  SECTION("a write-back") {
    spec.in = {sim::pallas::input<float>("x", {8, 128}, in_place)};
    const int line = __LINE__ + 1;
    spec.out = {sim::pallas::output<float>("y", {8, 128}, too_far)};
    scenario.kernel = sim::pallas::pallas_call(spec, copy);
    const auto result = run(scenario, machine(1), {});
    CHECK(result.verdict == model::Verdict::out_of_bounds);
    CHECK_THAT(result.details,
               Catch::Contains("starts the write-back of out[0] 'y' for grid point (3), block (4, 0) (BlockSpec "
                               "at pallas_test.cpp:" +
                               std::to_string(line) + "), a DMA writing [32:40, 0:128]"));
  }
}
