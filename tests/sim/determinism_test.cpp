#include <catch2/catch.hpp>

#include <set>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "scheduler/strategies/replay.hpp"

using namespace weft;

namespace {

const sim::ScenarioRegistry& registry() {
  static const auto scenarios = scenarios::builtin_scenarios();
  return scenarios;
}

sim::Simulation make(const std::string& name, sim::Params overrides = {}) {
  const auto* scenario = sim::find_scenario(registry(), name);
  REQUIRE(scenario != nullptr);
  sim::Params params = scenario->params;
  for (const auto& [key, value] : overrides) params[key] = value;
  sim::Config config;
  config.machine.mesh = {4};
  config.machine.cores_per_device = 2;
  config.scheduler.watchdog_seconds = 0.5;  // hostile_spin waits for it on every run
  return sim::Simulation(config, *scenario, params);
}

}  // namespace

TEST_CASE("one seed gives byte-identical schedules and reports, run after run", "[sim][determinism]") {
  for (const auto& scenario : registry()) {
    auto first = make(scenario.name);
    auto second = make(scenario.name);
    for (std::uint64_t seed : {0u, 1u, 42u}) {
      CAPTURE(scenario.name, seed);
      const auto a = first.run_seed(seed);
      const auto b = second.run_seed(seed);
      const auto again = first.run_seed(seed);  // stacks reused from the pool
      CHECK(scheduler::encode(a.schedule) == scheduler::encode(b.schedule));
      CHECK(scheduler::encode(a.schedule) == scheduler::encode(again.schedule));
      CHECK(a.verdict == b.verdict);
      CHECK(a.details == b.details);
      CHECK(a.steps == b.steps);
    }
  }
}

TEST_CASE("different seeds give different schedules", "[sim][determinism]") {
  auto simulation = make("ring_all_gather");
  std::set<std::string> schedules;
  for (std::uint64_t seed = 0; seed < 10; ++seed)
    schedules.insert(scheduler::encode(simulation.run_seed(seed).schedule));
  CHECK(schedules.size() == 10);
}

TEST_CASE("a schedule string replays the same execution", "[sim][determinism]") {
  for (const auto& [name, overrides] :
       std::vector<std::pair<std::string, sim::Params>>{{"ring_all_reduce", {}},
                                                        {"right_permute", {{"barrier_waits", 3}}},
                                                        {"core_pipeline", {{"tile_offset", 1}}}}) {
    auto simulation = make(name, overrides);
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(name, seed);
      const auto original = simulation.run_seed(seed);
      const auto replayed = simulation.run_schedule(scheduler::decode(scheduler::encode(original.schedule)));
      CHECK(scheduler::encode(replayed.schedule) == scheduler::encode(original.schedule));
      CHECK(replayed.verdict == original.verdict);
      CHECK(replayed.details == original.details);
    }
  }
}

TEST_CASE("a schedule that picks a blocked actor is rejected, not followed", "[sim][determinism]") {
  auto simulation = make("right_permute", {{"barrier_waits", 3}});
  const auto deadlocked = simulation.run_seed(3);
  REQUIRE(deadlocked.verdict == model::Verdict::deadlock);
  auto schedule = deadlocked.schedule;
  schedule[1] = {scheduler::Actor::Kind::dma_read, 99};  // no such DMA
  CHECK_THROWS_AS(simulation.run_schedule(schedule), scheduler::ScheduleDiverged);
}
