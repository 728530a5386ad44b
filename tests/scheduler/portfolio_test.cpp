// The portfolio strategy: seed s is its member's own run of seed s, members taken in turn.

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/portfolio.hpp"
#include "scheduler/strategies/registry.hpp"
#include "tests/scheduler/scripted_process.hpp"

namespace {

using namespace weft::scheduler;
using weft::scheduler::testing::ScriptedProcess;

// Three cores of eight steps, core 2 waiting for core 0's fourth step: enough choice that
// different strategies pick differently.
Schedule schedule_of(const StrategySettings& settings, std::uint64_t seed) {
  ScriptedProcess process;
  process.add({Actor::Kind::core, 0}, 8);
  process.add({Actor::Kind::core, 1}, 8);
  process.add({Actor::Kind::core, 2}, 8, [](const ScriptedProcess& p) {
    return p.runs_of({Actor::Kind::core, 2}) < 2 || p.runs_of({Actor::Kind::core, 0}) >= 4;
  });
  auto strategy = make_strategy(settings, seed);
  Schedule record;
  REQUIRE(run_steps(process, *strategy, 1000, record).end == LoopEnd::stopped);
  return record;
}

StrategySettings settings_named(std::string name, int depth = 3) {
  StrategySettings settings;
  settings.name = std::move(name);
  settings.pct_depth = depth;
  settings.steps_estimate = [] { return std::uint64_t{24}; };
  return settings;
}

}  // namespace

TEST_CASE("a portfolio seed runs exactly its member's schedule of that seed", "[scheduler][portfolio]") {
  std::map<std::string, int> seeds_per_member;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const PortfolioMember& member = portfolio_member(seed);
    ++seeds_per_member[to_string(member)];
    const Schedule alone = schedule_of(settings_named(std::string(member.strategy), member.pct_depth), seed);
    CHECK(schedule_of(settings_named("portfolio"), seed) == alone);
  }
  // Contiguous seeds share the members out evenly.
  REQUIRE(seeds_per_member.size() == portfolio_members().size());
  for (const auto& [member, seeds] : seeds_per_member) {
    INFO(member);
    CHECK(seeds == static_cast<int>(40 / portfolio_members().size()));
  }
}

TEST_CASE("the portfolio's members are registered strategies, each named for reports", "[scheduler][portfolio]") {
  for (const PortfolioMember& member : portfolio_members()) {
    bool registered = false;
    for (const auto name : strategy_names()) registered |= name == member.strategy;
    CHECK(registered);
    CHECK_FALSE(to_string(member).empty());
  }
  CHECK(to_string(portfolio_member(0)) == "random");
  CHECK(to_string(portfolio_member(3)) == "pct (depth 3)");
}
