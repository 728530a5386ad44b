// The spin reduction (sim/engine/poll_window.hpp, docs/semantics.md §6): a core that re-reads
// unchanged values with no effect in between is blocked until another actor changes them.

#include <catch2/catch.hpp>

#include <string>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::explore;
using sim::test::machine_of;
using sim::test::run;

namespace {

// A polling loop, whose line the reports name.
constexpr int poll_line = __LINE__ + 2;
void poll_until_signalled(sim::Core& core, sim::Semaphore ready) {
  while (core.read(ready) == 0) continue;
}

// Device 1 polls its cell of a regular semaphore until device 0 signals it (`signals` 1), then
// takes the signal; with `signals` 0 nothing ever comes.
sim::ScenarioDefinition semaphore_poller(int signals) {
  sim::ScenarioDefinition s;
  s.kernel = [signals](sim::Core& core) {
    auto ready = core.semaphore();
    if (core.device_id() == 0) {
      if (signals > 0) core.signal(ready, 1, {.device = 1});
      return;
    }
    poll_until_signalled(core, ready);
    core.wait(ready, 1);
  };
  return s;
}

sim::Config with(sim::Config config, const std::string& strategy, bool reduction, std::int64_t max_steps) {
  config.scheduler.strategy = strategy;
  config.scheduler.spin_reduction = reduction;
  config.scheduler.max_steps = max_steps;
  return config;
}

}  // namespace

TEST_CASE("A core polling a semaphore's count is blocked until the count changes", "[sim][polling]") {
  const sim::Config base = machine_of(2, 1, true);
  int spun_out = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    CAPTURE(seed);
    const auto reduced = run(semaphore_poller(1), with(base, "pct", true, 5000), seed);
    INFO(reduced.details);
    CHECK(reduced.verdict == model::Verdict::ok);
    CHECK(reduced.steps < 20);  // two reads, then blocked until the signal
    spun_out += run(semaphore_poller(1), with(base, "pct", false, 5000), seed).verdict == model::Verdict::step_limit;
  }
  CHECK(spun_out > 0);  // without it, PCT runs the poller to the step limit on some seeds

  const auto report = explore(semaphore_poller(1), with(base, "random", true, 5000));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
}

TEST_CASE("A poll nothing can satisfy is a deadlock naming the polling line", "[sim][polling]") {
  const auto result = run(semaphore_poller(0), machine_of(2, 1, true));
  REQUIRE(result.verdict == model::Verdict::deadlock);
  CHECK_THAT(result.details, Catch::Contains("spin_reduction_test.cpp:" + std::to_string(poll_line) + ": polls"));
  CHECK_THAT(result.details, Catch::Contains("(count 0)"));
  const auto report = explore(semaphore_poller(0), machine_of(2, 1, true));
  CHECK(report.exhausted);
  CHECK(report.found(model::Verdict::deadlock));
  CHECK(report.verdicts.size() == 1);
}

TEST_CASE("Cores that keep changing what the other reads still end in step_limit", "[sim][polling]") {
  // A livelock: each core copies the other's counter into its own, plus one, for ever.
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("n", {2}); };
  s.kernel = [](sim::Core& core) {
    auto n = core.hbm<std::int32_t>("n");
    const int me = core.core_id();
    for (;;) core.store(n.at({sim::ds(me, 1)}), core.load(n.at({sim::ds(1 - me, 1)})) + 1);
  };
  for (std::uint64_t seed = 0; seed < 10; ++seed)
    CHECK(run(s, with(machine_of(1, 2, false), "pct", true, 3000), seed).verdict == model::Verdict::step_limit);
}

TEST_CASE("A loop that gives up after N tries is taken for a poll (the rule's limit)", "[sim][polling]") {
  // Nobody raises the flag: the kernel gives up after 5 reads and returns, which the reduction
  // cannot know (it assumes a poll keeps no state of its own): a deadlock. spin_reduction =
  // false runs it to its end.
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("flag", {1}); };
  s.kernel = [](sim::Core& core) {
    auto flag = core.hbm<std::int32_t>("flag");
    for (int tries = 0; tries < 5; ++tries)
      if (core.load(flag)(0, 0) != 0) break;
  };
  CHECK(run(s, with(machine_of(1, 1, false), "random", true, 3000)).verdict == model::Verdict::deadlock);
  CHECK(run(s, with(machine_of(1, 1, false), "random", false, 3000)).verdict == model::Verdict::ok);
}

TEST_CASE("A loop that reads two values is blocked only while both are unchanged", "[sim][polling]") {
  // Core 0 raises a, then b; core 1 polls until both are up, then copies b into c.
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("v", {3}); };
  s.kernel = [](sim::Core& core) {
    auto v = core.hbm<std::int32_t>("v");
    auto at = [&](int k) { return v.at({sim::ds(k, 1)}); };
    const auto one = sim::Tile<std::int32_t>::Constant(1, 1, 1);
    if (core.core_id() == 0) {
      core.store(at(0), one);
      core.store(at(1), one);
      return;
    }
    std::int32_t a = 0, b = 0;
    while (a == 0 || b == 0) {
      a = core.load(at(0))(0, 0);
      b = core.load(at(1))(0, 0);
    }
    core.store(at(2), one * b);
  };
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    const auto result = run(s, with(machine_of(1, 2, false), "pct", true, 3000), seed);
    CHECK(result.verdict == model::Verdict::ok);
    CHECK(result.steps < 30);
  }
  const auto report = explore(s, machine_of(1, 2, false));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
}
