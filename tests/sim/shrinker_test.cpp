// Schedule shrinking on real executions: the verdict is kept, preemptions never grow, and the
// shrunk schedule replays strictly to the same execution. A planted bug that needs one precise
// interleaving shows the shrinker turning a long random schedule into a short story.

#include <catch2/catch.hpp>

#include <optional>

#include "scenarios/registry.hpp"
#include "scheduler/strategies/lenient_replay.hpp"
#include "sim/engine/shrinker.hpp"
#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

const sim::ScenarioRegistry& registry() {
  static const auto scenarios = scenarios::builtin_scenarios();
  return scenarios;
}

sim::Config topology(std::vector<int> mesh, int cores) {
  sim::Config config;
  config.machine.mesh = std::move(mesh);
  config.machine.cores_per_device = cores;
  return config;
}

sim::Simulation make(const std::string& name, sim::Params overrides, sim::Config config) {
  const auto* scenario = sim::find_scenario(registry(), name);
  REQUIRE(scenario != nullptr);
  sim::Params params = scenario->params;
  for (const auto& [key, value] : overrides) params[key] = value;
  return sim::Simulation(std::move(config), *scenario, params);
}

// The preemptions of a schedule, counted by replaying it leniently (it fits, so nothing changes).
std::size_t preemptions_of(sim::Simulation& simulation, const scheduler::Schedule& schedule) {
  scheduler::LenientReplayStrategy strategy(schedule);
  const auto result = simulation.run(strategy);
  REQUIRE(result.schedule == schedule);
  return strategy.preemptions();
}

// Shrinks `failing` and checks every promise of the shrinker; returns the result.
sim::ShrinkResult shrink_and_check(sim::Simulation& simulation, const sim::ExecutionResult& failing) {
  sim::Shrinker shrinker(simulation);
  const sim::ShrinkResult shrunk = shrinker.shrink(failing);
  INFO("preemptions " << shrunk.preemptions_before << " -> " << shrunk.preemptions_after << ", steps "
                      << shrunk.steps_before << " -> " << shrunk.result.steps << ", executions " << shrunk.executions);
  CHECK(shrunk.result.verdict == failing.verdict);
  CHECK(shrunk.preemptions_after <= shrunk.preemptions_before);
  CHECK(scheduler::encode(shrunk.result.schedule).size() <= scheduler::encode(failing.schedule).size());
  CHECK(shrunk.preemptions_before == preemptions_of(simulation, failing.schedule));
  CHECK(shrunk.preemptions_after == preemptions_of(simulation, shrunk.result.schedule));
  CHECK(shrunk.steps_before == failing.steps);
  CHECK(shrunk.result.steps == shrunk.result.schedule.size());
  if (shrunk.preemptions_after == shrunk.preemptions_before) CHECK(shrunk.result.steps <= failing.steps);
  CHECK(shrunk.executions >= 1);
  CHECK(shrunk.executions <= 1000);

  const auto strict = simulation.run_schedule(scheduler::decode(scheduler::encode(shrunk.result.schedule)));
  CHECK(strict.verdict == failing.verdict);
  CHECK(scheduler::encode(strict.schedule) == scheduler::encode(shrunk.result.schedule));
  CHECK(strict.details == shrunk.result.details);
  return shrunk;
}

// The first `wanted` seeds from 0 whose execution ends with `verdict` (searching a bounded range).
std::vector<sim::ExecutionResult> failing_runs(sim::Simulation& simulation, model::Verdict verdict, int wanted) {
  std::vector<sim::ExecutionResult> runs;
  for (std::uint64_t seed = 0; seed < 200 && static_cast<int>(runs.size()) < wanted; ++seed) {
    auto result = simulation.run_seed(seed);
    if (result.verdict == verdict) runs.push_back(std::move(result));
  }
  REQUIRE(static_cast<int>(runs.size()) == wanted);
  return runs;
}

// --- a planted deep bug ---
// Two cores of one device take `steps_per_core` visible steps each. Core 0 sets flag A in shared
// HBM at its step `flag_a`, and flag B at its step `flag_b`; every other step stores scratch.
// Core 1 loads scratch, except at its step `reader`, where it loads both flags and fails its
// check if A is set and B is not. So the bug needs core 0 to be between its two flags exactly
// when core 1 reads them. Race detection is off: the flags are racy on purpose.
constexpr int steps_per_core = 20, flag_a = 5, flag_b = 15, reader = 10;

sim::ScenarioDefinition planted_flags() {
  sim::ScenarioDefinition s;
  s.name = "planted_flags";
  s.summary = "core 1 fails if it reads flag A set and flag B not yet set";
  s.expect = model::Verdict::ok;
  s.setup = [](sim::Host& host) {
    host.hbm<float>("flags", {2});
    host.hbm<float>("scratch", {host.num_cores()});
    host.data<float>("flags", 0).setZero();
    host.data<float>("scratch", 0).setZero();
  };
  s.kernel = [](sim::Core& core) {
    auto flags = core.hbm<float>("flags");
    auto scratch = core.hbm<float>("scratch")[core.core_id()];
    const sim::Tile<float> one = sim::Tile<float>::Constant(1, 1, 1.0f);
    for (int step = 1; step <= steps_per_core; ++step) {
      if (core.core_id() == 0) {
        if (step == flag_a) core.store(flags[0], one);
        else if (step == flag_b) core.store(flags[1], one);
        else core.store(scratch, sim::Tile<float>::Constant(1, 1, float(step)));
      } else if (step == reader) {
        const sim::Tile<float> seen = core.load(flags);
        core.check(!(seen(0, 0) == 1.0f && seen(0, 1) == 0.0f), "flag A is set but flag B is not");
      } else {
        core.store(scratch, sim::Tile<float>::Constant(1, 1, float(step)));  // busy work (a load would poll)
      }
    }
  };
  return s;
}

}  // namespace

TEST_CASE("shrinking a deadlock keeps it and removes its preemptions", "[sim][shrink]") {
  auto simulation = make("right_permute", {{"barrier_waits", 3}}, topology({4}, 1));
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    const auto failing = simulation.run_seed(seed);
    REQUIRE(failing.verdict == model::Verdict::deadlock);
    const auto shrunk = shrink_and_check(simulation, failing);
    INFO("preemptions " << shrunk.preemptions_before << " -> " << shrunk.preemptions_after);
    CHECK(shrunk.preemptions_after == 0);  // every core runs to its barrier in turn
  }
}

TEST_CASE("shrinking a race between two cores keeps the race", "[sim][shrink]") {
  auto simulation = make("two_cores_one_output", {{"disjoint", 0}}, topology({1}, 2));
  for (const auto& failing : failing_runs(simulation, model::Verdict::data_race, 5)) {
    const std::string schedule = scheduler::encode(failing.schedule);
    CAPTURE(schedule);
    const auto shrunk = shrink_and_check(simulation, failing);
    CHECK(shrunk.preemptions_after == 0);
  }
}

TEST_CASE("shrinking the early-reuse race of the double-buffered all-gather keeps the race", "[sim][shrink]") {
  auto simulation = make("ring_all_gather_double_buffered", {{"early_reuse", 1}}, topology({8}, 1));
  const auto runs = failing_runs(simulation, model::Verdict::data_race, 4);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string schedule = scheduler::encode(runs[i].schedule);
    CAPTURE(i, schedule);
    const auto shrunk = shrink_and_check(simulation, runs[i]);
    INFO("preemptions " << shrunk.preemptions_before << " -> " << shrunk.preemptions_after);
    CHECK(shrunk.preemptions_after < shrunk.preemptions_before);
  }
}

TEST_CASE("a planted bug deep in a long random schedule shrinks to a few preemptions", "[sim][shrink]") {
  const sim::ScenarioDefinition planted = planted_flags();
  sim::Config config = topology({1}, 2);
  config.race_detection.enabled = false;
  sim::Simulation simulation(config, planted, {});
  int shrunk_runs = 0;
  for (std::uint64_t seed = 0; seed < 40 && shrunk_runs < 6; ++seed) {
    CAPTURE(seed);
    const auto failing = simulation.run_seed(seed);
    if (failing.verdict != model::Verdict::kernel_error) continue;
    ++shrunk_runs;
    const auto shrunk = shrink_and_check(simulation, failing);
    INFO("before: " << scheduler::encode(failing.schedule));
    INFO("after:  " << scheduler::encode(shrunk.result.schedule));
    INFO("preemptions " << shrunk.preemptions_before << " -> " << shrunk.preemptions_after);
    CHECK(shrunk.preemptions_before > 3);
    CHECK(shrunk.preemptions_after <= 3);
    CHECK(shrunk.result.details.find("flag A is set but flag B is not") != std::string::npos);
  }
  CHECK(shrunk_runs == 6);
}

TEST_CASE("the shrinker stops at its budget with a valid schedule", "[sim][shrink]") {
  const sim::ScenarioDefinition planted = planted_flags();
  sim::Config config = topology({1}, 2);
  config.race_detection.enabled = false;
  sim::Simulation simulation(config, planted, {});
  std::optional<sim::ExecutionResult> failing;
  for (std::uint64_t seed = 0; seed < 40 && !failing; ++seed)
    if (auto result = simulation.run_seed(seed); result.verdict == model::Verdict::kernel_error) failing = result;
  REQUIRE(failing);
  for (std::size_t budget : {1u, 2u, 5u}) {
    CAPTURE(budget);
    sim::Shrinker shrinker(simulation, {.max_executions = budget});
    const auto shrunk = shrinker.shrink(*failing);
    CHECK(shrunk.executions == budget);
    CHECK(shrunk.budget_exhausted);
    CHECK(shrunk.result.verdict == failing->verdict);
    CHECK(shrunk.preemptions_after <= shrunk.preemptions_before);
    const auto strict = simulation.run_schedule(shrunk.result.schedule);
    CHECK(strict.schedule == shrunk.result.schedule);
  }
}

TEST_CASE("the shrinker refuses an execution that is not of its simulation", "[sim][shrink]") {
  auto simulation = make("right_permute", {{"barrier_waits", 3}}, topology({4}, 1));
  auto failing = simulation.run_seed(0);
  REQUIRE(failing.verdict == model::Verdict::deadlock);
  failing.verdict = model::Verdict::data_race;
  sim::Shrinker shrinker(simulation);
  CHECK_THROWS_AS(shrinker.shrink(failing), std::invalid_argument);
}

TEST_CASE("shrinking is deterministic", "[sim][shrink]") {
  auto first = make("ring_all_gather_double_buffered", {{"early_reuse", 1}}, topology({8}, 1));
  auto second = make("ring_all_gather_double_buffered", {{"early_reuse", 1}}, topology({8}, 1));
  const auto failing = failing_runs(first, model::Verdict::data_race, 1).front();
  const auto a = sim::Shrinker(first).shrink(failing);
  const auto b = sim::Shrinker(second).shrink(failing);
  CHECK(scheduler::encode(a.result.schedule) == scheduler::encode(b.result.schedule));
  CHECK(a.executions == b.executions);
  CHECK(a.preemptions_after == b.preemptions_after);
}
