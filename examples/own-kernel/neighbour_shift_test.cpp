// The kernel's unit tests: weft::testing runs the scenario as `weft sweep` and `weft explore`
// do, and hands back each verdict it did not expect with the command that reproduces it.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

weft::sim::ScenarioDefinition neighbour_shift();  // neighbour_shift.cpp

namespace {

// The scenario file (its path is compiled in), so the reproduce commands run with the stock weft.
weft::testing::Scenario shift(std::vector<std::string> sets = {}) {
  return {.name = SCENARIO_FILE, .scenarios = {neighbour_shift()}, .sets = std::move(sets)};
}

}  // namespace

TEST_CASE("the shift is ok for 100 seeds of each strategy") {
  for (const char* strategy : {"random", "pct"}) {
    const auto result = weft::testing::sweep(shift(), {.seeds = {0, 99}, .strategy = strategy});
    INFO(result.report);
    CHECK(result.as_expected);
    CHECK(result.executions == 100);
  }
}

TEST_CASE("every interleaving of the shift on 3 devices is ok") {
  const auto result = weft::testing::explore(shift({"topology.devices=3"}));
  INFO(result.report);
  CHECK(result.as_expected);
  CHECK(result.exhausted);
}

TEST_CASE("without the handshake the copy races with the neighbour's clearing store") {
  const auto result = weft::testing::sweep(shift({"params.handshake=0"}), {.seeds = {0, 9}});
  INFO(result.report);
  REQUIRE_FALSE(result.as_expected);
  REQUIRE(result.findings.size() == 1);  // a sweep stops at its first unexpected verdict
  CHECK(result.findings[0].verdict == weft::model::Verdict::data_race);
  CHECK_THAT(result.findings[0].reproduce,
             Catch::Contains(" replay ") && Catch::Contains("--set params.handshake=0 --seed"));
}

TEST_CASE("one execution at a time: the one `weft run neighbour_shift --seed 7` runs, and its schedule replays it") {
  const weft::sim::ScenarioRegistry mine{neighbour_shift()};  // outlives the request and the simulation
  const weft::sim::Request request =
      weft::sim::resolve_request({.scenario = "neighbour_shift", .sets = {"topology.devices=2"}}, mine);
  weft::sim::Simulation simulation(request.config, *request.scenario, request.params);
  const weft::sim::ExecutionResult result = simulation.run_seed(7);
  CHECK(result.verdict == weft::model::Verdict::ok);
  CHECK(simulation.run_schedule(result.schedule).steps == result.steps);
}
