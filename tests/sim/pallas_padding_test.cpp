// Blocks that overhang their array (sim/pallas/block_placement.hpp): where a block lies and what
// of its slot is padding, and how the pipeline pads them (its fetch copies the part inside the
// array and the rest of the slot holds the memory policy's fill; its write-back drops the
// padding), as a TPU and interpret mode pad ragged blocks.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "model/machine.hpp"
#include "scenarios/registry.hpp"
#include "scheduler/strategies/random.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/pallas/block_placement.hpp"
#include "sim/pallas/pallas_call.hpp"

using namespace weft;
using sim::pallas::Block;
using sim::pallas::GridIndex;
using sim::pallas::place_block;
using sim::pallas::squeezed;

namespace {

model::Buffer buffer(const model::Shape& shape) {
  model::BufferInfo info;
  info.shape = shape;
  return model::Buffer(info, model::Uninitialized::nan);
}

model::Slice whole(model::Buffer& b) { return {&b, model::Rect::whole(b.info().shape), b.info().shape}; }

// A BlockSpec of these extents (`element`: the dimensions indexed by element, as pl.Element).
sim::pallas::BlockSpec blocks(std::vector<std::int64_t> extents, std::vector<bool> element = {}) {
  sim::pallas::BlockSpec spec;
  spec.block = std::move(extents);
  spec.element = std::move(element);
  return spec;
}

std::string text(const model::Rect& rect) { return model::to_string(rect); }

sim::Config one_core() {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 1;
  return config;
}

// A launch over cdiv(rows_in, 8) row blocks of 8 x 8 that copies x's block into out's (plus
// `add`), or stores `fill` into out's block when fill is not 0. x's row r holds r.
sim::ScenarioDefinition ragged_copy(std::int64_t rows_in, std::int64_t rows_out, float fill) {
  sim::ScenarioDefinition s;
  s.name = "ragged_copy";
  s.setup = [rows_in, rows_out](sim::Host& host) {
    host.hbm<float>("x", {rows_in, 8});
    host.hbm<float>("out", {rows_out, 8});
    auto x = host.data<float>("x", 0);
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i / 8);
  };
  sim::pallas::CallSpec spec;
  spec.grid = {(rows_in + 7) / 8};
  spec.in = {sim::pallas::input<float>("x", {8, 8}, [](const GridIndex& g) { return Block{g[0], 0}; })};
  spec.out = {sim::pallas::output<float>("out", {8, 8}, [](const GridIndex& g) { return Block{g[0], 0}; })};
  s.kernel = sim::pallas::pallas_call(spec, [fill](sim::pallas::Program& p) {
    sim::Core& core = p.core();
    if (fill != 0) {
      core.store(p.out<float>(0), sim::Tile<float>::Constant(8, 8, fill));
    } else {
      core.store(p.out<float>(0), core.load(p.in<float>(0)));
    }
  });
  return s;
}

struct Outcome {
  sim::ExecutionResult result;
  std::vector<float> out;
};

Outcome run_and_read(const sim::ScenarioDefinition& scenario, const sim::Config& config,
                     sim::TraceSink* trace = nullptr) {
  Outcome outcome;
  sim::Simulation simulation(config, scenario, {});
  const sim::Simulation::Inspector inspect = [&](const model::Machine& m) {
    const model::Buffer* out = m.memory().find_named(0, "out");
    outcome.out.assign(out->data<float>(), out->data<float>() + out->info().shape.volume());
  };
  scheduler::RandomStrategy strategy(0);
  outcome.result = simulation.run(strategy, trace, &inspect);
  return outcome;
}

struct DmaStarts final : sim::TraceSink {
  std::vector<sim::TraceEvent> starts;
  void on_event(const sim::TraceEvent& event) override {
    if (event.kind == sim::TraceEvent::Kind::dma_start && event.origin.what != nullptr) starts.push_back(event);
  }
  // The start of the pipeline DMA described as `what` (its BlockSpec's line follows).
  const sim::TraceEvent& of(const std::string& what) const {
    for (const auto& event : starts)
      if (model::describe(event.origin).starts_with(what + " (BlockSpec at ")) return event;
    FAIL("no DMA " << what);
    return starts.front();
  }
};

}  // namespace

TEST_CASE("A block inside its array is placed whole, with no padding", "[sim][pallas]") {
  auto array = buffer({24, 8});
  auto slot = buffer({8, 8});
  const auto placement = place_block(whole(array), blocks({8, 8}), Block{2, 0}, &slot);
  CHECK_FALSE(placement.ragged());
  CHECK(text(placement.array.rect) == "[16:24, 0:8]");
  CHECK(text(placement.slot.rect) == "[0:8, 0:8]");
}

TEST_CASE("The last block of cdiv(20, 8) keeps the 4 rows inside the array, the other 4 are padding", "[sim][pallas]") {
  auto array = buffer({20, 128});
  auto slot = buffer({8, 128});
  const auto placement = place_block(whole(array), blocks({8, 128}), Block{2, 0}, &slot);
  REQUIRE(placement.ragged());
  CHECK(text(placement.array.rect) == "[16:20, 0:128]");
  CHECK(text(placement.slot.rect) == "[0:4, 0:128]");
  CHECK(placement.array.view == model::Shape{4, 128});
  CHECK(placement.slot.view == model::Shape{4, 128});
  REQUIRE(placement.padding_count == 1);
  CHECK(text(placement.padding[0]) == "[4:8, 0:128]");
}

TEST_CASE("A block that overhangs along two dimensions has two disjoint padding slabs covering the rest",
          "[sim][pallas]") {
  auto array = buffer({20, 12});
  auto slot = buffer({8, 8});
  const auto placement = place_block(whole(array), blocks({8, 8}), Block{2, 1}, &slot);
  CHECK(text(placement.array.rect) == "[16:20, 8:12]");
  CHECK(text(placement.slot.rect) == "[0:4, 0:4]");
  REQUIRE(placement.padding_count == 2);
  CHECK(text(placement.padding[0]) == "[4:8, 0:8]");
  CHECK(text(placement.padding[1]) == "[0:4, 4:8]");
  CHECK_FALSE(placement.padding[0].overlaps(placement.padding[1]));
  CHECK(placement.slot.rect.volume() + placement.padding[0].volume() + placement.padding[1].volume() == 64);
}

TEST_CASE("A block larger than its array, and a squeezed dimension, are clipped too", "[sim][pallas]") {
  SECTION("larger than the array") {
    auto array = buffer({3, 5});
    auto slot = buffer({8, 8});
    const auto placement = place_block(whole(array), blocks({8, 8}), Block{0, 0}, &slot);
    CHECK(text(placement.array.rect) == "[0:3, 0:5]");
    CHECK(text(placement.slot.rect) == "[0:3, 0:5]");
  }
  SECTION("a squeezed dimension keeps its one element and drops from the view") {
    auto array = buffer({4, 20});
    auto slot = buffer({8});
    const auto placement = place_block(whole(array), blocks({squeezed, 8}), Block{3, 2}, &slot);
    CHECK(text(placement.array.rect) == "[3:4, 16:20]");
    CHECK(placement.array.view == model::Shape{4});
    CHECK(text(placement.slot.rect) == "[0:4]");
    REQUIRE(placement.padding_count == 1);
    CHECK(text(placement.padding[0]) == "[4:8]");
  }
}

TEST_CASE("A block with no element inside its array is placed unclipped, for its DMA to be out of bounds",
          "[sim][pallas]") {
  auto array = buffer({20, 8});
  auto slot = buffer({8, 8});
  const auto past = place_block(whole(array), blocks({8, 8}), Block{3, 0}, &slot);
  CHECK_FALSE(past.ragged());
  CHECK(text(past.array.rect) == "[24:32, 0:8]");
  const auto negative = place_block(whole(array), blocks({8, 8}), Block{-1, 0}, &slot);
  CHECK(text(negative.array.rect) == "[-8:0, 0:8]");
  CHECK(sim::pallas::can_overhang(whole(array), blocks({8, 8})));
  CHECK_FALSE(sim::pallas::can_overhang(whole(array), blocks({4, 8})));
}

TEST_CASE("A dimension indexed by element places the block at that element, overlapping its neighbours",
          "[sim][pallas]") {
  auto array = buffer({40, 128});
  auto slot = buffer({16, 128});
  const auto window = place_block(whole(array), blocks({16, 128}, {true, false}), Block{8, 0}, &slot);
  CHECK_FALSE(window.ragged());
  CHECK(text(window.array.rect) == "[8:24, 0:128]");
  const auto last = place_block(whole(array), blocks({16, 128}, {true, false}), Block{32, 0}, &slot);
  REQUIRE(last.ragged());
  CHECK(text(last.array.rect) == "[32:40, 0:128]");
  CHECK(text(last.padding[0]) == "[8:16, 0:128]");
  CHECK(sim::pallas::can_overhang(whole(array), blocks({8, 128}, {true, false})));
}

TEST_CASE("A ragged fetch copies the rows inside the array, and the rest of the block holds NaN", "[sim][pallas]") {
  // x has 20 rows; out has 24, so the body's copy of the last block shows its padding.
  DmaStarts trace;
  const auto outcome = run_and_read(ragged_copy(20, 24, 0), one_core(), &trace);
  INFO(outcome.result.details);
  REQUIRE(outcome.result.verdict == model::Verdict::ok);
  REQUIRE(outcome.out.size() == 24 * 8);
  CHECK(outcome.out[19 * 8] == 19);
  CHECK(outcome.out[19 * 8 + 7] == 19);
  for (int i = 20 * 8; i < 24 * 8; ++i) CHECK(std::isnan(outcome.out[static_cast<std::size_t>(i)]));
  // The DMA moves only the real rectangle: HBM rows 16..19 into the slot's first 4 rows.
  REQUIRE(trace.starts.size() == 6);  // 3 fetches, 3 write-backs
  const sim::TraceEvent& last_fetch = trace.of("fetch of in[0] for grid point (2), block (2, 0)");
  CHECK(text(last_fetch.rect) == "[16:20, 0:8]");
  CHECK(text(last_fetch.target_rect) == "[0:4, 0:8]");
}

TEST_CASE("Under memory.uninitialized = zero the padding holds zero", "[sim][pallas]") {
  sim::Config config = one_core();
  config.machine.uninitialized = model::Uninitialized::zero;
  const auto outcome = run_and_read(ragged_copy(20, 24, 0), config);
  REQUIRE(outcome.result.verdict == model::Verdict::ok);
  CHECK(outcome.out[20 * 8] == 0);
  CHECK(outcome.out[24 * 8 - 1] == 0);
}

TEST_CASE("A slot that held a whole block is padded again when a ragged block is fetched into it", "[sim][pallas]") {
  // Five blocks over 36 rows: the last (rows 32..35) goes into the slot that held rows 16..23.
  const auto outcome = run_and_read(ragged_copy(36, 40, 0), one_core());
  REQUIRE(outcome.result.verdict == model::Verdict::ok);
  CHECK(outcome.out[35 * 8] == 35);
  for (int i = 36 * 8; i < 40 * 8; ++i) CHECK(std::isnan(outcome.out[static_cast<std::size_t>(i)]));
}

TEST_CASE("A ragged write-back copies only the rows inside the array: writes to padding are dropped", "[sim][pallas]") {
  DmaStarts trace;
  const auto outcome = run_and_read(ragged_copy(20, 20, 7), one_core(), &trace);
  INFO(outcome.result.details);
  REQUIRE(outcome.result.verdict == model::Verdict::ok);
  for (const float value : outcome.out) CHECK(value == 7);
  const sim::TraceEvent& last_write_back = trace.of("write-back of out[0] for grid point (2), block (2, 0)");
  CHECK(text(last_write_back.rect) == "[0:4, 0:8]");
  CHECK(text(last_write_back.target_rect) == "[16:20, 0:8]");
}

TEST_CASE("Padding that reaches the output is a wrong result whose report names the padded block", "[sim][pallas]") {
  const auto scenario = scenarios::pallas_ragged_reduction();
  sim::Config config = one_core();
  config.machine.cores_per_device = 2;
  auto params = scenario.params;
  SECTION("masked, the reduction is right") {
    sim::Simulation simulation(config, scenario, params);
    const auto result = simulation.run_seed(0);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
  SECTION("unmasked, the padding's NaN reaches every column sum") {
    params["mask"] = 0;
    sim::Simulation simulation(config, scenario, params);
    const auto result = simulation.run_seed(0);
    CHECK(result.verdict == model::Verdict::wrong_result);
    CHECK_THAT(result.details,
               Catch::Contains("in[0] 'x' block (2, 0) at grid point (0, 2) overhangs the array [20, 16] "
                               "(its BlockSpec at ragged_reduction.cpp:"));
    CHECK_THAT(result.details, Catch::Contains("only [16:20, 0:8] is fetched, the rest of the block is padding"));
  }
}

TEST_CASE("An output block with no element inside its array is an out-of-bounds write-back, named as such",
          "[sim][pallas]") {
  sim::ScenarioDefinition scenario;
  scenario.name = "write_back_too_far";
  scenario.setup = [](sim::Host& host) { host.hbm<float>("out", {20, 8}); };
  sim::pallas::CallSpec spec;
  spec.grid = {3};
  spec.out = {sim::pallas::output<float>("out", {8, 8}, [](const GridIndex& g) { return Block{g[0] + 1, 0}; })};
  scenario.kernel = sim::pallas::pallas_call(
      spec, [](sim::pallas::Program& p) { p.core().store(p.out<float>(0), sim::Tile<float>::Zero(8, 8)); });
  sim::Simulation simulation(one_core(), scenario, {});
  const auto result = simulation.run_seed(0);
  CHECK(result.verdict == model::Verdict::out_of_bounds);
  CHECK_THAT(result.details,
             Catch::Contains("starts the write-back of out[0] 'out' for grid point (2), block (3, 0) (BlockSpec "
                             "at pallas_padding_test.cpp:"));
  CHECK_THAT(result.details, Catch::Contains("), a DMA writing [24:32, 0:8]"));
}

TEST_CASE("An inner pipeline over a slice pads at the slice's edge, not the buffer's", "[sim][pallas]") {
  // Rows 0..11 of a 20-row x through blocks of 8: the second block keeps rows 8..11 and leaves
  // out's rows 12..19 alone, though the buffer has them.
  sim::ScenarioDefinition scenario;
  scenario.name = "inner_ragged";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {20, 8});
    host.hbm<float>("out", {20, 8});
    auto x = host.data<float>("x", 0);
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i / 8);
  };
  sim::pallas::CallSpec spec;
  spec.in = {sim::pallas::any<float>("x")};
  spec.out = {sim::pallas::any<float>("out")};
  scenario.kernel = sim::pallas::core_map(spec, [](sim::pallas::Program& p) {
    const auto map = sim::pallas::index_map([](const GridIndex& g) { return Block{g[0], 0}; });
    sim::pallas::emit_pipeline(p.core(), {2}, {sim::pallas::block(p.in<float>(0).at({sim::ds(0, 12)}), {8, 8}, map)},
                               {sim::pallas::block(p.out<float>(0).at({sim::ds(0, 12)}), {8, 8}, map)},
                               [](sim::pallas::Program& inner) {
                                 sim::Core& c = inner.core();
                                 c.store(inner.out<float>(0), c.load(inner.in<float>(0)) + 1);
                               });
  });
  const auto outcome = run_and_read(scenario, one_core());
  INFO(outcome.result.details);
  REQUIRE(outcome.result.verdict == model::Verdict::ok);
  CHECK(outcome.out[11 * 8] == 12);
  CHECK(std::isnan(outcome.out[12 * 8]));
  CHECK(std::isnan(outcome.out[20 * 8 - 1]));
}

TEST_CASE("A ragged fetch's DMA reads only the rows inside the array: a write just past them does not race",
          "[sim][pallas]") {
  // Core 0 streams rows 0..11 of x (its second block overhangs them) while core 1 stores into rows
  // 12..19 of the same buffer. The fetch of block 1 reads rows 8..11 only, so nothing races.
  sim::ScenarioDefinition scenario;
  scenario.name = "inner_ragged_beside_a_store";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {20, 8});
    host.hbm<float>("out", {20, 8});
  };
  sim::pallas::CallSpec spec;
  spec.in = {sim::pallas::any<float>("x")};
  spec.out = {sim::pallas::any<float>("out")};
  scenario.kernel = sim::pallas::core_map(spec, [](sim::pallas::Program& p) {
    sim::Core& core = p.core();
    if (core.core_id() == 1) {
      core.store(p.in<float>(0).at({sim::ds(12, 8)}), sim::Tile<float>::Constant(8, 8, 5));
      return;
    }
    const auto map = sim::pallas::index_map([](const GridIndex& g) { return Block{g[0], 0}; });
    sim::pallas::emit_pipeline(core, {2}, {sim::pallas::block(p.in<float>(0).at({sim::ds(0, 12)}), {8, 8}, map)},
                               {sim::pallas::block(p.out<float>(0).at({sim::ds(0, 12)}), {8, 8}, map)},
                               [](sim::pallas::Program& inner) {
                                 sim::Core& c = inner.core();
                                 c.store(inner.out<float>(0), c.load(inner.in<float>(0)));
                               });
  });
  sim::Config config = one_core();
  config.machine.cores_per_device = 2;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    sim::Simulation simulation(config, scenario, {});
    const auto result = simulation.run_seed(seed);
    INFO("seed " << seed << ": " << result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
}

TEST_CASE("Padding adds steps but no interleaving class: the ragged matmul explores to the matmul's classes",
          "[sim][pallas]") {
  // The same grid (2, 2, 2) of 8 x 8 blocks, over 16 x 16 arrays and over 12 x 12 ones.
  sim::Config config = one_core();
  config.machine.cores_per_device = 2;
  const auto classes = [&](const sim::ScenarioDefinition& scenario) {
    sim::Simulation simulation(config, scenario, scenario.params);
    const auto report = sim::explore(simulation, scheduler::ExploreOptions{}, true);
    CHECK(report.exhausted);
    CHECK(report.as_expected(model::Verdict::ok));
    return report.complete;
  };
  const auto ragged = classes(scenarios::pallas_ragged_matmul());
  CHECK(ragged == classes(scenarios::pallas_matmul()));
  CHECK(ragged > 1);
}
