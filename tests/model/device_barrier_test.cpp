// The device barrier (model/device_barrier.hpp, model/barrier_clocks.hpp): a core leaves once
// every core of its device has arrived; what each did before arriving happens before what any
// does after leaving, and nothing done after an arrival is ordered by it.

#include <catch2/catch.hpp>

#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

// A barrier as a core goes through it: arrive, then leave (which must be allowed by then).
void leave(RaceMachine& m, CoreId who) {
  const int global = m.machine.topology().global(who);
  REQUIRE(m.machine.device_barrier().can_leave(global));
  m.machine.leave_barrier(global);
}

}  // namespace

TEST_CASE("A core leaves the device barrier only once every core of its device has arrived", "[model][barrier]") {
  RaceMachine m(spec_of(2, 3));
  const auto& barrier = m.machine.device_barrier();
  m.machine.arrive_at_barrier(a);
  m.machine.arrive_at_barrier(b);
  m.machine.arrive_at_barrier({1, 0});  // another device's barrier
  CHECK_FALSE(barrier.can_leave(0));
  CHECK_FALSE(barrier.can_leave(1));
  CHECK(barrier.cell(0) == 2);
  m.machine.arrive_at_barrier(c);
  CHECK(barrier.can_leave(0));
  CHECK(barrier.can_leave(2));
  CHECK_FALSE(barrier.can_leave(3));  // device 1 has one arrival of three
  leave(m, a);
  CHECK_FALSE(barrier.can_leave(0));
  CHECK(barrier.can_leave(1));  // a's departure took a's cell only
}

TEST_CASE("Every core's stores before the barrier happen before every core's loads after it",
          "[model][barrier][race]") {
  RaceMachine m(spec_of(1, 3));
  Buffer* x = m.host("x", Shape{6});
  REQUIRE(m.store(a, x, rect1(0, 2), 10));
  REQUIRE(m.store(b, x, rect1(2, 2), 11));
  for (const CoreId who : {a, b, c}) m.machine.arrive_at_barrier(who);
  for (const CoreId who : {c, b, a}) leave(m, who);
  CHECK(m.load(c, x, rect1(0, 2), 20));        // a's, from before the barrier
  CHECK(m.store(a, x, rect1(2, 1), 21));       // over b's, from before the barrier
  CHECK_FALSE(m.load(c, x, rect1(2, 1), 22));  // a's store after the barrier is c's concern again
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("What a core does after arriving is not ordered before the others' departures", "[model][barrier][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{4});
  m.machine.arrive_at_barrier(a);
  REQUIRE(m.store(a, x, rect1(0, 2), 10));  // after its arrival: the barrier does not cover it
  m.machine.arrive_at_barrier(b);
  leave(m, b);
  CHECK_FALSE(m.load(b, x, rect1(0, 2), 20));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("A fast core's next barrier neither wakes nor orders a slow core's departure from this one",
          "[model][barrier][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{4});
  m.machine.arrive_at_barrier(a);
  m.machine.arrive_at_barrier(b);
  leave(m, a);
  REQUIRE(m.store(a, x, rect1(0, 2), 10));  // between barriers 1 and 2
  m.machine.arrive_at_barrier(a);           // a arrives at barrier 2 before b leaves barrier 1
  const int b_global = m.machine.topology().global(b);
  CHECK(m.machine.device_barrier().cell(b_global) == 3);
  leave(m, b);  // takes barrier 1's two arrivals; barrier 2's stays
  CHECK_FALSE(m.machine.device_barrier().can_leave(b_global));
  CHECK_FALSE(m.load(b, x, rect1(0, 2), 20));  // barrier 1 does not order a's store
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("Barrier rounds are reused: the third barrier orders what the first two did", "[model][barrier][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{4});
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    const CoreId writer = round % 2 == 0 ? a : b, reader = round % 2 == 0 ? b : a;
    REQUIRE(m.store(writer, x, rect1(0, 4), 10 + round));
    m.machine.arrive_at_barrier(a);
    m.machine.arrive_at_barrier(b);
    leave(m, reader);
    CHECK(m.load(reader, x, rect1(0, 4), 20 + round));
    leave(m, writer);
  }
}

TEST_CASE("On a device of one core a barrier is an arrival and a departure", "[model][barrier]") {
  RaceMachine m(spec_of(3, 1));
  m.machine.arrive_at_barrier({1, 0});
  CHECK(m.machine.device_barrier().can_leave(1));
  CHECK_FALSE(m.machine.device_barrier().can_leave(0));
  leave(m, {1, 0});
  CHECK(m.machine.device_barrier().cell(1) == 0);
}
