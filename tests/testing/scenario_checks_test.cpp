// weft::testing, as a kernel author's unit test uses it: sweeps and explorations of weft's
// built-in scenarios, their verdicts, and reproduce commands that the command line replays.

#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>

#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"
#include "sim/config/config_error.hpp"
#include "sim/testing/scenario_checks.hpp"

using weft::model::Verdict;

namespace {

weft::testing::Scenario builtin(std::string name, std::vector<std::string> sets = {}) {
  return {.name = std::move(name), .scenarios = weft::scenarios::builtin_scenarios(), .sets = std::move(sets)};
}

// Runs a printed command line (words without quotes) through weft's command line; returns
// its exit status and what it printed.
std::pair<int, std::string> run_command(const std::string& command) {
  std::istringstream words(command);
  std::vector<std::string> args;
  for (std::string word; words >> word;) args.push_back(word);
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  std::ostringstream out;
  auto* old = std::cout.rdbuf(out.rdbuf());
  const auto registry = weft::scenarios::builtin_scenarios();
  const int status = weft::sim::run_cli(static_cast<int>(argv.size()), argv.data(), registry);
  std::cout.rdbuf(old);
  return {status, out.str()};
}

}  // namespace

TEST_CASE("a sweep of a correct kernel is as expected, with no findings", "[testing]") {
  const auto result = weft::testing::sweep(builtin("ring_all_reduce"), {.seeds = {0, 19}, .strategy = "pct"});
  CHECK(result.as_expected);
  CHECK(result.expected == Verdict::ok);
  CHECK(result.executions == 20);
  CHECK(result.findings.empty());
  CHECK(result.report.starts_with(
      "sweep of ring_all_reduce, seeds 0..19 (pct): 20 executions, 0 verdicts not as expected"));
}

TEST_CASE("a sweep that finds a deadlock gives the verdict, the report and a command that replays it", "[testing]") {
  const auto scenario = builtin("right_permute", {"params.barrier_waits=3"});
  const auto result = weft::testing::sweep(scenario, {.seeds = {0, 19}});
  CHECK_FALSE(result.as_expected);
  REQUIRE(result.findings.size() == 1);  // it stops at the first, in seed order
  const auto& found = result.findings[0];
  CHECK(found.seed == 0u);
  CHECK(found.verdict == Verdict::deadlock);
  CHECK(found.reproduce == "weft replay right_permute --set params.barrier_waits=3 --seed 0");
  CHECK(found.report.find("needs 3, holds 2") != std::string::npos);
  CHECK(result.report.find(found.report) != std::string::npos);

  const auto [status, replayed] = run_command(found.reproduce);
  CHECK(status == 1);
  CHECK(replayed == found.report);

  CHECK(weft::testing::sweep(scenario, {.seeds = {0, 19}, .keep_going = true}).findings.size() == 20);
}

TEST_CASE("an exploration proves a small kernel, or finds the failure a scenario file expects", "[testing]") {
  const auto proved = weft::testing::explore(builtin("ring_all_reduce", {"topology.devices=3"}));
  CHECK(proved.as_expected);
  CHECK(proved.exhausted);
  CHECK(proved.executions > 1);

  const auto deadlock = weft::testing::explore(
      {.name = WEFT_SOURCE_DIR "/scenarios/barrier_deadlock.toml", .scenarios = weft::scenarios::builtin_scenarios()});
  CHECK(deadlock.as_expected);
  CHECK(deadlock.expected == Verdict::deadlock);
  CHECK(deadlock.findings.empty());

  const auto unexpected = weft::testing::explore(builtin("right_permute", {"params.barrier_waits=3"}));
  CHECK_FALSE(unexpected.as_expected);
  REQUIRE_FALSE(unexpected.findings.empty());
  CHECK(unexpected.findings[0].verdict == Verdict::deadlock);
  CHECK_FALSE(unexpected.findings[0].seed);
  CHECK(unexpected.findings[0].reproduce.find(" --schedule ") != std::string::npos);
  CHECK(run_command(unexpected.findings[0].reproduce).first == 1);
}

TEST_CASE("an exploration with two threads proves and finds what one does", "[testing]") {
  const auto proved = weft::testing::explore(builtin("ring_all_reduce", {"topology.devices=3"}), {.jobs = 2});
  CHECK(proved.as_expected);
  CHECK(proved.exhausted);
  CHECK(proved.executions == weft::testing::explore(builtin("ring_all_reduce", {"topology.devices=3"})).executions);

  const auto unexpected = weft::testing::explore(builtin("right_permute", {"params.barrier_waits=3"}), {.jobs = 2});
  CHECK_FALSE(unexpected.as_expected);
  REQUIRE_FALSE(unexpected.findings.empty());
  CHECK(unexpected.findings[0].verdict == Verdict::deadlock);
  CHECK(run_command(unexpected.findings[0].reproduce).first == 1);
}

TEST_CASE("mistakes in what a test asks for throw ConfigError", "[testing]") {
  CHECK_THROWS_AS(weft::testing::sweep(builtin("no_such_scenario")), weft::sim::ConfigError);
  CHECK_THROWS_AS(weft::testing::sweep(builtin("ring_all_reduce", {"topology.devices=0"})), weft::sim::ConfigError);
  CHECK_THROWS_AS(weft::testing::explore(builtin("ring_all_reduce", {"dma.execution=on_wait"})),
                  weft::sim::ConfigError);
}
