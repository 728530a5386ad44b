// Race detection, semaphore edges (docs/semantics.md §5): a signal orders the signaller's earlier
// events before the wait that consumes it; in precise mode a wait acquires only the signals
// whose units it consumes, in signal order; in accumulate mode it acquires the whole cell; a
// release ticks the releaser, so what it does afterwards is not ordered.

#include <catch2/catch.hpp>

#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

TEST_CASE("A store, a signal and the wait that consumes it order the store before the load", "[model][race]") {
  for (SemaphoreClocks mode : {SemaphoreClocks::precise, SemaphoreClocks::accumulate}) {
    RaceMachine m(spec_of(1, 2), mode);
    Buffer* x = m.host("x", Shape{8});
    const int sem = semaphore(m.machine, a);
    REQUIRE(m.store(a, x, rect1(0, 4), 10));
    m.signal(a, sem, b, 1);
    m.wait(b, sem, 1);
    CHECK(m.load(b, x, rect1(0, 4), 20));
    CHECK(m.store(b, x, rect1(1, 2), 21));  // write after write, ordered
  }
}

TEST_CASE("A signal without the wait orders nothing", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 1);
  CHECK_FALSE(m.load(b, x, rect1(0, 4), 20));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("A wait on another semaphore or another core's cell orders nothing", "[model][race]") {
  RaceMachine m(spec_of(1, 3));
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  const int other = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, c, 1);    // to c, not b
  m.signal(c, other, b, 1);  // b's wait gets c's clock, which never heard of a's store
  m.wait(b, other, 1);
  CHECK_FALSE(m.load(b, x, rect1(0, 4), 20));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("Ordering is transitive through a chain of signals and waits", "[model][race]") {
  RaceMachine m(spec_of(1, 3));
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 1);
  m.wait(b, sem, 1);
  m.signal(b, sem, c, 1);
  m.wait(c, sem, 1);
  CHECK(m.store(c, x, rect1(0, 8), 30));
}

TEST_CASE("In precise mode a wait acquires only the signals whose units it consumes, in signal order",
          "[model][race]") {
  RaceMachine m(spec_of(1, 3), SemaphoreClocks::precise);
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 1);
  REQUIRE(m.store(c, x, rect1(4, 4), 30));
  m.signal(c, sem, b, 1);

  SECTION("waiting for 1 acquires a's signal only") {
    m.wait(b, sem, 1);
    CHECK(m.load(b, x, rect1(0, 4), 20));
    CHECK_FALSE(m.load(b, x, rect1(4, 4), 21));
    CHECK(m.failure.verdict == Verdict::data_race);
    CHECK_THAT(m.failure.message, Catch::Contains("device 0 core 2") && Catch::Contains("race.cpp:30"));
  }
  SECTION("waiting for 1 twice acquires both") {
    m.wait(b, sem, 1);
    m.wait(b, sem, 1);
    CHECK(m.load(b, x, rect1(0, 8), 20));
  }
  SECTION("waiting for 2 acquires both") {
    m.wait(b, sem, 2);
    CHECK(m.load(b, x, rect1(4, 4), 21));
    CHECK(m.load(b, x, rect1(0, 4), 20));
  }
}

TEST_CASE("In accumulate mode a wait acquires every earlier signal to the cell", "[model][race]") {
  RaceMachine m(spec_of(1, 3), SemaphoreClocks::accumulate);
  Buffer* x = m.host("x", Shape{12});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 1);
  REQUIRE(m.store(c, x, rect1(4, 4), 30));
  m.signal(c, sem, b, 1);
  m.wait(b, sem, 1);
  CHECK(m.load(b, x, rect1(4, 4), 21));
  CHECK(m.load(b, x, rect1(0, 4), 20));
  // It does not acquire signals made after the wait.
  REQUIRE(m.store(a, x, rect1(8, 4), 11));
  m.signal(a, sem, b, 1);
  CHECK_FALSE(m.load(b, x, rect1(9, 1), 22));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("In precise mode a partly consumed signal gives its clock to each wait that takes from it", "[model][race]") {
  RaceMachine m(spec_of(1, 3), SemaphoreClocks::precise);
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 4);
  REQUIRE(m.store(c, x, rect1(4, 4), 30));
  m.signal(c, sem, b, 1);

  m.wait(b, sem, 2);  // half of a's signal
  CHECK(m.load(b, x, rect1(0, 4), 20));
  m.wait(b, sem, 2);  // the rest of a's signal, none of c's
  CHECK(m.load(b, x, rect1(0, 4), 21));
  CHECK(m.machine.semaphores().count(sem, 1) == 1);
  CHECK_FALSE(m.load(b, x, rect1(4, 1), 22));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("In precise mode a wait spanning two signals acquires both", "[model][race]") {
  RaceMachine m(spec_of(1, 3), SemaphoreClocks::precise);
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 3);
  REQUIRE(m.store(c, x, rect1(4, 4), 30));
  m.signal(c, sem, b, 3);
  m.wait(b, sem, 2);
  m.wait(b, sem, 2);  // one unit of a's, one of c's
  CHECK(m.load(b, x, rect1(0, 8), 20));
}

TEST_CASE("A release ticks the releaser: its later store is not ordered before the wait", "[model][race]") {
  for (SemaphoreClocks mode : {SemaphoreClocks::precise, SemaphoreClocks::accumulate}) {
    RaceMachine m(spec_of(1, 2), mode);
    Buffer* x = m.host("x", Shape{8});
    const int sem = semaphore(m.machine, a);
    REQUIRE(m.store(a, x, rect1(0, 2), 10));
    m.signal(a, sem, b, 1);
    REQUIRE(m.store(a, x, rect1(4, 4), 11));  // after the signal
    m.wait(b, sem, 1);
    CHECK(m.load(b, x, rect1(0, 2), 20));
    CHECK_FALSE(m.load(b, x, rect1(4, 4), 21));
    CHECK(m.failure.verdict == Verdict::data_race);
    CHECK_THAT(m.failure.message, Catch::Contains("race.cpp:11"));
  }
}

TEST_CASE("A signal orders the waiter's later accesses after the signaller's earlier loads", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.load(a, x, rect1(0, 8), 10));
  m.signal(a, sem, b, 1);
  m.wait(b, sem, 1);
  CHECK(m.store(b, x, rect1(0, 8), 20));
  // ...but not a's load after the signal.
  CHECK_FALSE(m.load(a, x, rect1(0, 1), 11));
  CHECK(m.failure.verdict == Verdict::data_race);
}
