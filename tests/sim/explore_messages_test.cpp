#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "scenarios/registry.hpp"
#include "scheduler/strategies/claimed_run.hpp"
#include "sim/engine/explore_messages.hpp"
#include "sim/engine/explore_parts.hpp"
#include "tests/sim/sim_test_support.hpp"

// The messages of an exploration shared by processes (sim/engine/explore_messages.hpp): what is
// encoded decodes to the same, and bytes that are not a whole message are refused.

using namespace weft;
namespace messages = weft::sim::explore_messages;
using scheduler::SharedWakeupTree;

namespace {

const sim::ScenarioDefinition& builtin(const std::string& name) {
  static const auto registry = scenarios::builtin_scenarios();
  return *sim::find_scenario(registry, name);
}

scheduler::Footprint odd_footprint() {
  scheduler::Footprint footprint;
  scheduler::Touch touch;
  touch.object = {7, -1, std::int64_t{1} << 40, -(std::int64_t{1} << 62)};
  touch.mode = scheduler::TouchMode::take;
  touch.box = {3, {0, -5, 9, 1}, {4, 4, 4, 0}};
  touch.amount = -3;
  touch.ordered = true;
  footprint.touches = {touch, scheduler::Touch{}};
  footprint.creates = true;
  return footprint;
}

// Claims of a real exploration of readers: the first (nothing forced), then those its runs left.
std::vector<SharedWakeupTree::Claim> some_claims(std::size_t how_many) {
  const auto& scenario = builtin("readers");
  sim::Simulation simulation(sim::test::machine_of(1, 5, false), scenario, scenario.params);
  SharedWakeupTree tree;
  scheduler::ClaimedRun strategy;
  std::optional<SharedWakeupTree::Path> near;
  std::vector<SharedWakeupTree::Claim> claims;
  while (claims.size() < how_many) {
    auto claim = tree.claim(near ? &*near : nullptr, &strategy.sleeps());
    if (!claim) break;
    claims.push_back(*claim);
    strategy.start(std::move(*claim));
    try {
      simulation.run(strategy);
    } catch (const scheduler::ExecutionAbandoned&) {
    }
    auto& reversals = strategy.analyse();
    auto states = strategy.new_states();
    near = tree.finish(strategy.claim(), std::move(states), strategy.run(), reversals);
  }
  return claims;
}

const scheduler::HappensBefore::Clocks no_order{{}, {}, {}, {0}};  // of a run without events

}  // namespace

TEST_CASE("a claim decodes to what was encoded, without its path", "[sim][explore]") {
  std::vector<SharedWakeupTree::Claim> claims = some_claims(12);
  REQUIRE(claims.size() == 12);
  SharedWakeupTree::Claim made;
  made.forced = {{scheduler::Actor::Kind::dma_write, 4'000'000'000u, 17}, {}};
  made.sleeps = {{}, {{{scheduler::Actor::Kind::dma_read, 1, 2}, odd_footprint()}}};
  made.below = {{scheduler::Actor::Kind::core, 3, 0}};
  claims.push_back(made);
  for (const SharedWakeupTree::Claim& claim : claims) {
    const std::string bytes = messages::encode_claim(claim);
    CHECK(messages::kind_of(bytes) == messages::Kind::claim);
    const SharedWakeupTree::Claim decoded = messages::decode_claim(bytes);
    CHECK(decoded.first == claim.first);
    CHECK(decoded.forced == claim.forced);
    CHECK(decoded.sleeps == claim.sleeps);
    CHECK(decoded.below == claim.below);
    CHECK(decoded.path.empty());
  }
  CHECK(claims.front().first);
  CHECK_FALSE(claims.back().sleeps.empty());
}

TEST_CASE("a claim keeping states of the helper's last one decodes whole", "[sim][explore]") {
  const std::vector<SharedWakeupTree::Claim> claims = some_claims(12);
  int kept_some = 0;
  for (std::size_t c = 1; c < claims.size(); ++c) {
    const SharedWakeupTree::Claim& last = claims[c - 1];
    const SharedWakeupTree::Claim& claim = claims[c];
    std::size_t kept = 0;  // the states both have, with the same actors and sleep sets
    while (kept < claim.forced.size() && kept < last.forced.size() && claim.forced[kept] == last.forced[kept] &&
           claim.sleeps[kept] == last.sleeps[kept])
      ++kept;
    kept_some += kept > 0 ? 1 : 0;
    std::vector<scheduler::Sleep> last_sleeps = last.sleeps;
    const std::string bytes = messages::encode_claim(claim, kept);
    CHECK(bytes.size() <= messages::encode_claim(claim).size());
    const SharedWakeupTree::Claim decoded = messages::decode_claim(bytes, last.forced, &last_sleeps);
    CHECK(decoded.first == claim.first);
    CHECK(decoded.forced == claim.forced);
    CHECK(decoded.sleeps == claim.sleeps);
    CHECK(decoded.below == claim.below);
  }
  CHECK(kept_some > 0);
  std::vector<scheduler::Sleep> one_sleep(1);
  const std::string keeps_two = messages::encode_claim(claims.back(), 2);
  CHECK_THROWS_WITH(messages::decode_claim(keeps_two, claims.back().forced, &one_sleep),
                    "explore message: a claim keeping more of the last claim than it had");
  CHECK_THROWS_WITH(messages::decode_claim(keeps_two),
                    "explore message: a claim keeping more of the last claim than it had");
}

TEST_CASE("a run decodes to what was encoded, its end's touches and the claim's sleep sets left out",
          "[sim][explore]") {
  const auto& scenario = builtin("readers");
  sim::Simulation simulation(sim::test::machine_of(1, 5, false), scenario, scenario.params);
  const std::vector<SharedWakeupTree::Claim> claims = some_claims(6);
  for (const SharedWakeupTree::Claim& claim : claims) {
    const std::size_t from = claim.first ? 0 : claim.forced.size();
    scheduler::ClaimedRun strategy;
    strategy.start(messages::decode_claim(messages::encode_claim(claim)));
    messages::Outcome outcome;
    try {
      const sim::ExecutionResult result = simulation.run(strategy);
      outcome = {true, false, result.verdict, result.schedule, result.steps};
    } catch (const scheduler::ExecutionAbandoned&) {
    }
    const std::vector<scheduler::Reversal>& reversals = strategy.analyse();  // its end's touches on the events
    const SharedWakeupTree::Run& run = strategy.run();
    const scheduler::HappensBefore& order = strategy.analysis().order();
    const messages::RunMessage decoded =
        messages::decode_run(messages::encode_run(run, from, reversals, order.clocks(), outcome));
    const scheduler::HappensBefore received(decoded.clocks);
    for (std::size_t k = 0; k < run.events.size(); ++k)
      for (std::size_t i = 0; i <= k; ++i) REQUIRE(received.before(i, k) == order.before(i, k));
    CHECK(decoded.run.length == run.length);
    REQUIRE(decoded.run.events.size() == run.events.size());
    for (std::size_t k = 0; k < run.events.size(); ++k) {
      scheduler::Footprint as_ran = run.events[k].footprint;
      std::erase_if(as_ran.touches,
                    [](const scheduler::Touch& touch) { return touch.object == scheduler::run_end_object; });
      CHECK(decoded.run.events[k].actor == run.events[k].actor);
      CHECK(decoded.run.events[k].footprint == as_ran);
    }
    CHECK(decoded.run.enabled == run.enabled);
    CHECK(decoded.sleeps_from == from);
    REQUIRE(decoded.run.sleeps.size() == run.sleeps.size());
    for (std::size_t t = 0; t < run.sleeps.size(); ++t)
      CHECK(decoded.run.sleeps[t] == (t < from ? scheduler::Sleep{} : run.sleeps[t]));
    REQUIRE(decoded.races.size() == reversals.size());
    for (std::size_t r = 0; r < reversals.size(); ++r) {
      CHECK(decoded.races[r].first == reversals[r].at);
      CHECK(decoded.races[r].second == reversals[r].sequence.steps().back().index);
    }
    CHECK(decoded.outcome == outcome);
  }
}

TEST_CASE("the small messages decode to what was encoded", "[sim][explore]") {
  CHECK(messages::kind_of(messages::encode_ready()) == messages::Kind::ready);
  CHECK(messages::kind_of(messages::encode_stop()) == messages::Kind::stop);
  CHECK(messages::decode_error(messages::encode_error("rank 2: out of luck\n")) == "rank 2: out of luck\n");
  const messages::RunMessage stopped =
      messages::decode_run(messages::encode_run({}, 0, {}, no_order, {false, true, model::Verdict::ok, {}, 12}));
  CHECK(stopped.outcome.stopped);
  CHECK(stopped.outcome.steps == 12);
  CHECK(stopped.run.events.empty());
}

// Indices near the end of a message are not counts of what is left of it.
TEST_CASE("a run's races decode whatever their indices", "[sim][explore]") {
  SharedWakeupTree::Run run;
  for (std::uint32_t k = 0; k < 300; ++k) run.events.push_back({{scheduler::Actor::Kind::core, k % 3, 0}, {}});
  run.length = 299;
  run.enabled.assign(299, {});
  run.sleeps.assign(299, {});
  const scheduler::HappensBefore order(run.events, run.length);
  std::vector<scheduler::Reversal> reversals;
  reversals.push_back({290, scheduler::Sequence({{run.events[299].actor, &run.events[299].footprint, 299}}, order)});
  reversals.push_back({3, scheduler::Sequence({{run.events[200].actor, &run.events[200].footprint, 200}}, order)});
  const messages::RunMessage decoded =
      messages::decode_run(messages::encode_run(run, 299, reversals, order.clocks(), {}));
  CHECK(decoded.races == std::vector<std::pair<std::size_t, std::size_t>>{{290, 299}, {3, 200}});
  CHECK(decoded.run.length == 299);
  CHECK(decoded.sleeps_from == 299);
}

TEST_CASE("bytes that are not a whole message are refused", "[sim][explore]") {
  const std::vector<SharedWakeupTree::Claim> claims = some_claims(4);
  const std::string claim = messages::encode_claim(claims.back());
  for (std::size_t cut = 0; cut < claim.size(); ++cut)
    CHECK_THROWS_AS(messages::decode_claim(claim.substr(0, cut)), messages::MessageError);
  CHECK_THROWS_AS(messages::decode_claim(claim + "x"), messages::MessageError);
  CHECK_THROWS_AS(messages::decode_run(claim), messages::MessageError);
  CHECK_THROWS_WITH(messages::kind_of(std::string(1, '\x09')), "explore message: unknown kind 9");
  CHECK_THROWS_WITH(messages::decode_error(std::string("\x05\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12)),
                    "explore message: a number longer than 64 bits");
  std::string unknown_verdict =
      messages::encode_run({}, 0, {}, no_order, {true, false, model::Verdict::deadlock, {}, 0});
  const std::size_t name = unknown_verdict.find("deadlock");
  REQUIRE(name != std::string::npos);
  unknown_verdict[name] = 'D';
  CHECK_THROWS_WITH(messages::decode_run(unknown_verdict), "explore message: an unknown verdict");

  SharedWakeupTree::Run run;
  run.events.resize(2);
  run.length = 2;
  run.enabled.resize(2);
  run.sleeps.resize(2);
  const scheduler::HappensBefore order(run.events);
  scheduler::HappensBefore::Clocks unsorted = order.clocks();
  REQUIRE(unsorted.rows.size() == 3);
  unsorted.rows[1] = unsorted.rows[2] + 1;
  unsorted.clock.resize(unsorted.rows[1]);
  CHECK_THROWS_WITH(messages::decode_run(messages::encode_run(run, 2, {}, unsorted, {})),
                    "explore message: a run's order that does not fit its events");
  CHECK_THROWS_AS(scheduler::HappensBefore(unsorted), std::logic_error);
  CHECK_THROWS_WITH(messages::decode_run(messages::encode_run(run, 2, {}, no_order, {})),
                    "explore message: a run's order that does not fit its events");
}
