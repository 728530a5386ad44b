// PctStrategy, driven by a fake step loop: scripted actors, some of which appear (become enabled)
// only after others have run, as DMA phases do in a real execution.

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scheduler/strategies/pct.hpp"
#include "scheduler/step_loop.hpp"
#include "tests/scheduler/scripted_process.hpp"

namespace {

using namespace weft::scheduler;
using weft::scheduler::testing::ScriptedProcess;

Actor c(std::uint32_t i) { return {Actor::Kind::core, i}; }
Actor r(std::uint32_t i) { return {Actor::Kind::dma_read, i}; }
Actor w(std::uint32_t i) { return {Actor::Kind::dma_write, i}; }

// Three cores; core 0 starts two DMAs (their read phases appear after its 2nd and 4th steps, each
// write phase after its read phase), and core 2 waits for the first DMA to land.
void add_cores_and_dmas(ScriptedProcess& process) {
  process.add(c(0), 6);
  process.add(c(1), 6);
  process.add(c(2), 6, [](const ScriptedProcess& p) { return p.runs_of(c(2)) < 3 || p.runs_of(w(0)) == 1; });
  process.add(r(0), 1, [](const ScriptedProcess& p) { return p.runs_of(c(0)) >= 2; });
  process.add(w(0), 1, [](const ScriptedProcess& p) { return p.runs_of(r(0)) == 1; });
  process.add(r(1), 1, [](const ScriptedProcess& p) { return p.runs_of(c(0)) >= 4; });
  process.add(w(1), 1, [](const ScriptedProcess& p) { return p.runs_of(r(1)) == 1; });
}

// Checks, after every pick, that the picked actor has the highest priority of those offered.
class CheckingStrategy final : public Strategy {
 public:
  explicit CheckingStrategy(PctStrategy& pct) : pct_(pct) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override {
    const std::size_t chosen = pct_.pick(enabled, context);
    REQUIRE(chosen < enabled.size());
    for (const Actor& actor : enabled) {
      REQUIRE(pct_.priority(actor).has_value());
      if (actor != enabled[chosen]) CHECK(*pct_.priority(actor) < *pct_.priority(enabled[chosen]));
    }
    ++picks;
    return chosen;
  }
  int picks = 0;

 private:
  PctStrategy& pct_;
};

Schedule pct_schedule(std::uint64_t seed, int depth, std::uint64_t steps_estimate) {
  ScriptedProcess process;
  add_cores_and_dmas(process);
  PctStrategy strategy(seed, depth, steps_estimate);
  Schedule record;
  REQUIRE(run_steps(process, strategy, 1000, record).end == LoopEnd::stopped);
  return record;
}

// The runs of a schedule: each actor with how many steps in a row it took.
std::vector<std::pair<Actor, int>> runs(const Schedule& schedule) {
  std::vector<std::pair<Actor, int>> out;
  for (const Actor& actor : schedule) {
    if (!out.empty() && out.back().first == actor) ++out.back().second;
    else out.emplace_back(actor, 1);
  }
  return out;
}

}  // namespace

TEST_CASE("PctStrategy with one seed makes the same picks twice", "[scheduler][pct]") {
  const std::uint64_t seed = GENERATE(0, 1, 7, 12345);
  CAPTURE(seed);
  CHECK(pct_schedule(seed, 3, 22) == pct_schedule(seed, 3, 22));
  PctStrategy a(seed, 5, 100);
  PctStrategy b(seed, 5, 100);
  CHECK(a.change_points() == b.change_points());
}

TEST_CASE("PctStrategy with different seeds gives different schedules", "[scheduler][pct]") {
  std::set<std::string> schedules;
  for (std::uint64_t seed = 0; seed < 40; ++seed) schedules.insert(encode(pct_schedule(seed, 3, 22)));
  CHECK(schedules.size() > 10);
}

TEST_CASE("PctStrategy runs the enabled actor of highest priority at every step", "[scheduler][pct]") {
  const int depth = GENERATE(1, 2, 3, 6);
  for (std::uint64_t seed = 0; seed < 25; ++seed) {
    CAPTURE(depth, seed);
    ScriptedProcess process;
    add_cores_and_dmas(process);
    PctStrategy pct(seed, depth, 22);
    CheckingStrategy strategy(pct);
    Schedule record;
    REQUIRE(run_steps(process, strategy, 1000, record).end == LoopEnd::stopped);
    CHECK(strategy.picks == 22);
  }
}

TEST_CASE("With depth 1 there are no change points and one actor runs until it finishes", "[scheduler][pct]") {
  std::set<std::string> orders;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    CAPTURE(seed);
    ScriptedProcess process;
    process.add(c(0), 5);
    process.add(c(1), 5);
    process.add(c(2), 5);
    PctStrategy strategy(seed, 1, 15);
    CHECK(strategy.change_points().empty());
    Schedule record;
    REQUIRE(run_steps(process, strategy, 100, record).end == LoopEnd::stopped);
    const auto segments = runs(record);
    REQUIRE(segments.size() == 3);
    std::string order;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      CHECK(segments[i].second == 5);
      if (i > 0) CHECK(*strategy.priority(segments[i - 1].first) > *strategy.priority(segments[i].first));
      order += to_string(segments[i].first);
    }
    orders.insert(order);
  }
  CHECK(orders.size() == 6);  // every priority order occurs
}

TEST_CASE("With depth 1 an actor runs until it blocks, then the next in priority order", "[scheduler][pct]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    ScriptedProcess process;
    // c0 blocks after two steps until c1 has finished.
    process.add(c(0), 4, [](const ScriptedProcess& p) { return p.runs_of(c(0)) < 2 || p.runs_of(c(1)) == 3; });
    process.add(c(1), 3);
    PctStrategy strategy(seed, 1, 7);
    Schedule record;
    REQUIRE(run_steps(process, strategy, 100, record).end == LoopEnd::stopped);
    if (*strategy.priority(c(0)) > *strategy.priority(c(1))) CHECK(encode(record) == "c0:2,c1:3,c0:2");
    else CHECK(encode(record) == "c1:3,c0:4");
  }
}

TEST_CASE("Change points are distinct steps within the estimate", "[scheduler][pct]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    PctStrategy strategy(seed, 10, 20);
    const auto& points = strategy.change_points();
    CHECK(points.size() == 9);
    CHECK(std::set<std::uint64_t>(points.begin(), points.end()).size() == 9);
    for (const std::uint64_t point : points) {
      CHECK(point >= 1);
      CHECK(point <= 20);
    }
  }
  SECTION("an estimate below d - 1 makes every step a change point") {
    PctStrategy strategy(3, 10, 4);
    auto points = strategy.change_points();
    std::sort(points.begin(), points.end());
    CHECK(points == std::vector<std::uint64_t>{1, 2, 3, 4});
  }
  SECTION("an estimate of zero gives none") { CHECK(PctStrategy(3, 10, 0).change_points().empty()); }
}

TEST_CASE("Change points spread uniformly over the estimate", "[scheduler][pct]") {
  std::vector<int> hits(11, 0);
  for (std::uint64_t seed = 0; seed < 5000; ++seed) ++hits[PctStrategy(seed, 2, 10).change_points().at(0)];
  CHECK(hits[0] == 0);
  for (std::size_t step = 1; step <= 10; ++step) {
    CAPTURE(step);
    CHECK(hits[step] > 400);
    CHECK(hits[step] < 600);
  }
}

TEST_CASE("A change point lowers the running actor and the next one takes over", "[scheduler][pct]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    ScriptedProcess process;
    process.add(c(0), 10);
    process.add(c(1), 10);
    PctStrategy strategy(seed, 2, 20);
    const std::uint64_t point = strategy.change_points().at(0);
    Schedule record;
    REQUIRE(run_steps(process, strategy, 100, record).end == LoopEnd::stopped);
    CAPTURE(point, encode(record));
    if (point == 1) {
      // The lead changed before anyone ran: the demoted actor runs last.
      const Actor last = record.back();
      CHECK(*strategy.priority(last) == 1);  // d - 1
      CHECK(encode(record) == to_string(record.front()) + ":10," + to_string(last) + ":10");
    } else if (point <= 10) {
      // The leader ran point - 1 steps, was lowered at step `point`, and resumes after the other.
      const Actor first = record.front();
      const Actor second = first == c(0) ? c(1) : c(0);
      CHECK(*strategy.priority(first) == 1);
      CHECK(*strategy.priority(second) >= 2);
      Schedule want(point - 1, first);
      want.insert(want.end(), 10, second);
      want.insert(want.end(), 10 - (point - 1), first);
      CHECK(record == want);
    } else {
      // The leader had finished: the change point lowered the other one, now alone.
      CHECK(encode(record) == to_string(record.front()) + ":10," + to_string(record.back()) + ":10");
      CHECK(*strategy.priority(record.back()) == 1);
    }
  }
}

TEST_CASE("The i-th change point gives the running actor priority d - i", "[scheduler][pct]") {
  const int depth = 4;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    PctStrategy strategy(seed, depth, 30);
    const auto points = strategy.change_points();
    // Four cores, always enabled: a fake step loop that watches the priorities.
    const std::vector<Actor> enabled{c(0), c(1), c(2), c(3)};
    StepContext context;
    std::optional<Actor> before;  // highest-priority actor before this step's pick
    for (; context.step < 30; ++context.step) {
      const Actor picked = enabled[strategy.pick(enabled, context)];
      const std::uint64_t step = context.step + 1;
      const auto point = std::find(points.begin(), points.end(), step);
      if (point != points.end() && before) {
        const auto i = static_cast<std::uint64_t>(point - points.begin()) + 1;
        CAPTURE(step, i);
        CHECK(*strategy.priority(*before) == static_cast<std::uint64_t>(depth) - i);
        CHECK(picked != *before);
      } else if (before) {
        CHECK(picked == *before);  // no preemption without a change point
      }
      context.last = picked;
      before = picked;
    }
  }
}

TEST_CASE("New actors get priorities from the seed and their order of appearance", "[scheduler][pct]") {
  const std::uint64_t seed = GENERATE(0, 3, 99);
  CAPTURE(seed);
  auto final_priorities = [&] {
    ScriptedProcess process;
    add_cores_and_dmas(process);
    PctStrategy strategy(seed, 1, 22);
    Schedule record;
    REQUIRE(run_steps(process, strategy, 1000, record).end == LoopEnd::stopped);
    std::vector<std::uint64_t> out;
    for (const Actor& actor : {c(0), c(1), c(2), r(0), w(0), r(1), w(1)}) out.push_back(*strategy.priority(actor));
    return out;
  };
  const auto priorities = final_priorities();
  CHECK(priorities == final_priorities());
  CHECK(std::set<std::uint64_t>(priorities.begin(), priorities.end()).size() == priorities.size());
  for (const std::uint64_t priority : priorities) CHECK(priority >= 1);

  PctStrategy strategy(seed, 3, 10);
  CHECK_FALSE(strategy.priority(r(5)).has_value());
  const std::vector<Actor> cores{c(0), c(1)};
  strategy.pick(cores, {});
  CHECK_FALSE(strategy.priority(r(5)).has_value());  // not offered yet
  CHECK(*strategy.priority(c(0)) >= 3);              // initial priorities are >= d
}

TEST_CASE("A new actor lands uniformly among the actors already seen", "[scheduler][pct]") {
  // Two cores are seen at step 0; a DMA phase appears at step 1. Its rank among the three
  // initial priorities is uniform, so it preempts the running core a third of the time.
  std::vector<int> rank_counts(3, 0);
  const std::vector<Actor> cores{c(0), c(1)};
  const std::vector<Actor> with_dma{c(0), c(1), r(0)};
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    PctStrategy strategy(seed, 1, 10);
    strategy.pick(cores, {0, std::nullopt});
    strategy.pick(with_dma, {1, c(0)});
    int rank = 0;
    for (const Actor& core : cores) rank += *strategy.priority(core) > *strategy.priority(r(0));
    ++rank_counts[static_cast<std::size_t>(rank)];
  }
  for (int count : rank_counts) {
    CAPTURE(count);
    CHECK(count > 850);
    CHECK(count < 1150);
  }
}
