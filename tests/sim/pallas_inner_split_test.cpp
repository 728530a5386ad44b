// An inner pipeline split across the device's cores (emit_pipeline with a core axis and
// dimension semantics; sim/pallas/pallas_call.hpp's InnerSplit): each core runs its share of the
// parallel dimension, as a megacore splits a pallas_call, and the output is whole; without the
// split every core runs every step, and the cores' write-backs of the same blocks race.

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "model/machine.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/pallas/pallas_call.hpp"
#include "tests/sim/plus_one_copy.hpp"

using namespace weft;
using sim::pallas::Block;
using sim::pallas::GridIndex;

namespace {

struct BodyStores final : sim::TraceSink {
  std::map<std::uint32_t, int> by_core;  // the body's stores into its output block, per core
  void on_event(const sim::TraceEvent& e) override {
    if (e.kind == sim::TraceEvent::Kind::store && e.actor.kind == scheduler::Actor::Kind::core)
      ++by_core[e.actor.index];
  }
};

// x (32 x 8) through a core_map's inner pipeline of 4 row blocks into out, plus one.
sim::ScenarioDefinition inner_copy(sim::pallas::InnerSplit split) {
  sim::ScenarioDefinition s;
  s.name = "inner_copy";
  s.setup = sim::test::plus_one_setup;
  sim::pallas::CallSpec spec;
  spec.in = {sim::pallas::any<float>("x")};
  spec.out = {sim::pallas::any<float>("out")};
  s.kernel = sim::pallas::core_map(spec, [split](sim::pallas::Program& p) {
    const auto map = sim::pallas::index_map([](const GridIndex& g) { return Block{g[0], 0}; });
    sim::pallas::emit_pipeline(
        p.core(), {4}, {sim::pallas::block(p.in<float>(0), {8, 8}, map)},
        {sim::pallas::block(p.out<float>(0), {8, 8}, map)},
        [](sim::pallas::Program& inner) {
          sim::Core& c = inner.core();
          c.store(inner.out<float>(0), c.load(inner.in<float>(0)) + 1);
        },
        split);
  });
  s.check = sim::test::plus_one_check;
  return s;
}

sim::Config two_cores() {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 2;
  return config;
}

}  // namespace

TEST_CASE("An inner pipeline split across the cores runs each core's share of its parallel dimension",
          "[sim][pallas]") {
  const auto scenario = inner_copy({{sim::pallas::Semantics::parallel}, true});  // Simulation keeps a reference
  sim::Simulation simulation(two_cores(), scenario, {});
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    BodyStores stores;
    const auto result = simulation.run_seed(seed, &stores);
    CAPTURE(seed, result.details);
    REQUIRE(result.verdict == model::Verdict::ok);
    CHECK(stores.by_core == std::map<std::uint32_t, int>{{0, 2}, {1, 2}});  // 2 of the 4 steps each
  }
}

TEST_CASE("An inner pipeline without a core axis runs every step on every core: their write-backs race",
          "[sim][pallas]") {
  const auto scenario = inner_copy({{sim::pallas::Semantics::parallel}, false});
  sim::Simulation simulation(two_cores(), scenario, {});
  BodyStores stores;
  const auto result = simulation.run_seed(0, &stores);
  CHECK(result.verdict == model::Verdict::data_race);
  CHECK(result.details.find("inner pipeline write-back of out[0]") != std::string::npos);
}

TEST_CASE(
    "An inner pipeline split with no parallel dimension runs on one core, and semantics that do not fit its grid are "
    "refused",
    "[sim][pallas]") {
  const auto arbitrary = inner_copy({{sim::pallas::Semantics::arbitrary}, true});
  sim::Simulation simulation(two_cores(), arbitrary, {});
  CHECK(simulation.run_seed(0).verdict == model::Verdict::ok);  // arbitrary split across cores: all on core 0
  const sim::ScenarioDefinition bad =
      inner_copy({{sim::pallas::Semantics::arbitrary, sim::pallas::Semantics::parallel}, true});
  sim::Simulation refused(two_cores(), bad, {});
  const auto result = refused.run_seed(0);
  CHECK(result.verdict == model::Verdict::kernel_error);
  CHECK(result.details.find("runs emit_pipeline") != std::string::npos);
}
