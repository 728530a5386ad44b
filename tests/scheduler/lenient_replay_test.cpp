// The lenient replay strategy, driven through the step loop by a small scripted process: each
// actor has a number of transitions, and may wait until another actor has run a number of times.

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <vector>

#include "scheduler/strategies/lenient_replay.hpp"
#include "scheduler/step_loop.hpp"
#include "tests/scheduler/scripted_process.hpp"
#include "scheduler/rng.hpp"
#include "scheduler/strategies/replay.hpp"

namespace {

using namespace weft::scheduler;
using weft::scheduler::testing::ScriptedProcess;

Actor c(std::uint32_t i) { return {Actor::Kind::core, i}; }
Actor w(std::uint32_t i) { return {Actor::Kind::dma_write, i}; }

struct Replayed {
  Schedule record;
  LoopResult loop;
  std::size_t preemptions = 0;
  std::size_t fallbacks = 0;
};

Replayed replay(ScriptedProcess& process, Schedule schedule) {
  LenientReplayStrategy strategy(std::move(schedule));
  Replayed out;
  out.loop = run_steps(process, strategy, 1000, out.record);
  out.preemptions = strategy.preemptions();
  out.fallbacks = strategy.fallbacks();
  return out;
}

}  // namespace

TEST_CASE("a lenient replay follows a schedule that fits the execution", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 3);
  process.add(c(1), 2);
  const Schedule schedule{c(0), c(1), c(0), c(1), c(0)};
  const Replayed out = replay(process, schedule);
  CHECK(out.loop.end == LoopEnd::stopped);
  CHECK(out.record == schedule);
  CHECK(out.fallbacks == 0);
  CHECK(out.preemptions == 3);  // c0->c1, c1->c0, c0->c1; the last switch is forced (c1 is done)
}

TEST_CASE("a lenient replay takes the previous actor where the wanted one is blocked", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 3);
  process.add(c(1), 2, std::pair{c(0), 3});  // c1 waits for all of c0
  const Replayed out = replay(process, {c(0), c(1), c(1), c(0), c(1)});
  CHECK(out.record == Schedule{c(0), c(0), c(0), c(1), c(1)});
  CHECK(out.fallbacks == 3);    // steps 1 and 2 wanted the blocked c1, step 3 the finished c0
  CHECK(out.preemptions == 0);  // every switch was forced
}

TEST_CASE("a lenient replay takes the first enabled actor when the previous one cannot go on", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 1);
  process.add(c(1), 1);
  process.add(w(4), 1, std::pair{c(1), 1});
  // Step 0 wants w4, blocked, and there is no previous actor: the first enabled, c0. Step 1
  // wants w4 again; c0 is finished: the first enabled, c1.
  const Replayed out = replay(process, {w(4), w(4), c(1)});
  CHECK(out.record == Schedule{c(0), c(1), w(4)});
  CHECK(out.fallbacks == 3);  // step 2 wanted c1, which had finished: w4 is all that is left
  CHECK(out.preemptions == 0);
}

TEST_CASE("a lenient replay never throws, even on actors that do not exist", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 2);
  process.add(c(1), 2);
  Replayed out;
  CHECK_NOTHROW(out = replay(process, {c(7), w(99), c(1), c(42)}));
  CHECK(out.loop.end == LoopEnd::stopped);
  CHECK(out.record == Schedule{c(0), c(0), c(1), c(1)});
  CHECK(out.fallbacks == 3);
  CHECK(out.preemptions == 0);  // c1 at step 2 was wanted, but c0 had finished
}

TEST_CASE("past the schedule's end the previous actor goes on", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 3);
  process.add(c(1), 3);
  process.add(c(2), 1);
  const Replayed out = replay(process, {c(1)});
  CHECK(out.record == Schedule{c(1), c(1), c(1), c(0), c(0), c(0), c(2)});
  CHECK(out.fallbacks == 0);
  CHECK(out.preemptions == 0);
}

TEST_CASE("an empty schedule runs without a single preemption", "[scheduler][shrink]") {
  ScriptedProcess process;
  process.add(c(0), 2);
  process.add(c(1), 4, std::pair{c(2), 1});
  process.add(c(2), 2);
  const Replayed out = replay(process, {});
  CHECK(out.record == Schedule{c(0), c(0), c(2), c(2), c(1), c(1), c(1), c(1)});
  CHECK(out.preemptions == 0);
}

TEST_CASE("preemptions are counted on the recorded picks, not on the schedule given", "[scheduler][shrink]") {
  // The schedule asks for four switches; c1 is blocked until c0 has run twice, so the first one
  // falls back to c0 and the replay produces c0 c0 c1 c0 c1 c0: four switches, the last forced
  // (c1 has finished), so three preemptions.
  ScriptedProcess process;
  process.add(c(0), 4);
  process.add(c(1), 2, std::pair{c(0), 2});
  const Replayed out = replay(process, {c(0), c(1), c(1), c(0), c(1), c(0)});
  CHECK(out.record == Schedule{c(0), c(0), c(1), c(0), c(1), c(0)});
  CHECK(out.fallbacks == 1);
  CHECK(out.preemptions == 3);
}

TEST_CASE("a recorded lenient run replays strictly to the same picks", "[scheduler][shrink]") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    // A random schedule-like list of wishes, many of them impossible.
    Rng random(seed);
    Schedule wishes;
    for (int i = 0; i < 12; ++i) wishes.push_back(c(static_cast<std::uint32_t>(random.below(4))));
    ScriptedProcess lenient_process;
    lenient_process.add(c(0), 4);
    lenient_process.add(c(1), 3, std::pair{c(2), 2});
    lenient_process.add(c(2), 3);
    const Replayed out = replay(lenient_process, wishes);

    ScriptedProcess strict_process;
    strict_process.add(c(0), 4);
    strict_process.add(c(1), 3, std::pair{c(2), 2});
    strict_process.add(c(2), 3);
    ReplayStrategy strict(out.record);
    Schedule again;
    CHECK_NOTHROW(run_steps(strict_process, strict, 1000, again));
    CHECK(again == out.record);
  }
}
