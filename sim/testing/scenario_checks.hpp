#pragma once
// Checks of a scenario from a unit test (Catch2, GoogleTest or a plain assert): a sweep of
// seeds with a strategy, or an exploration of every interleaving, run as `weft sweep` and
// `weft explore` run them. The result says whether the scenario behaved as it expects, and
// holds each verdict that it did not expect with the report the command line prints and the
// command that reproduces it.
//
//   #include <catch2/catch.hpp>
//   #include <weft/weft.hpp>
//
//   TEST_CASE("my_ring gives its expected verdict for 200 seeds of PCT") {
//     const weft::testing::Scenario ring{.name = "my_ring", .scenarios = {my_ring()}};
//     const auto result = weft::testing::sweep(ring, {.seeds = {0, 199}, .strategy = "pct"});
//     INFO(result.report);
//     CHECK(result.as_expected);
//   }
//
// Mistakes in the request (an unknown scenario, key or verdict) throw ConfigError, as the
// command line's exit 2 does. Nothing is printed; nothing is kept between calls.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/verdict.hpp"
#include "sim/api/scenario.hpp"
#include "sim/config/config_error.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::testing {

// The scenario to check, named as on the command line.
struct Scenario {
  std::string name{};                   // a scenario's name, or a scenario TOML file (its `kernel` then names one)
  sim::ScenarioRegistry scenarios{};    // where names are looked up (weft::scenarios::builtin_scenarios(): weft's own)
  std::vector<std::string> sets{};      // "key=value" overrides, as --set
  std::optional<std::string> config{};  // a config file, as --config
  std::optional<std::string> expect{};  // the verdict expected, as --expect (default: the scenario's)
  std::string program = "weft";         // what the printed reproduce commands start with
};

struct SweepPlan {
  sim::SeedRange seeds{0, 99};            // both inclusive
  std::optional<std::string> strategy{};  // random, pct, ... (default: the config's scheduler.strategy)
  int jobs = 1;                           // worker threads (the result does not depend on them)
  bool keep_going = false;                // every unexpected verdict, not only the first in seed order
};

struct ExplorePlan {
  std::uint64_t max_executions = 0;  // 0: no bound
  std::optional<int> preemption_bound{};
  bool keep_going = false;  // go on after the first failure
  int jobs = 1;             // threads sharing one tree, as `weft explore --jobs` (not with a preemption bound)
};

// A verdict the scenario did not expect.
struct Finding {
  std::optional<std::uint64_t> seed{};  // the seed that gave it (sweeps; explore finds schedules)
  model::Verdict verdict = model::Verdict::ok;
  std::string report{};     // as `weft run` prints it: what happened, and the reproduce commands
  std::string reproduce{};  // one command that replays it: by seed when there is one, else by schedule
};

struct Result {
  bool as_expected = true;  // what `weft sweep` / `weft explore` would exit 0 for
  model::Verdict expected = model::Verdict::ok;
  std::uint64_t executions = 0;     // executions run (explore: complete runs)
  bool exhausted = false;           // explore: the reduction left no interleaving to run
  std::vector<Finding> findings{};  // sweeps: in seed order
  std::string report{};             // a line of totals, then each finding's report: a test's failure message
};

Result sweep(const Scenario& scenario, const SweepPlan& plan = {});
// The configuration must have eager or async DMAs (`.sets = {"dma.execution=async"}`).
Result explore(const Scenario& scenario, const ExplorePlan& plan = {});

}  // namespace weft::testing
