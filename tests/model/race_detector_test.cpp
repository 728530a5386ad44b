// Race detection through Machine (docs/semantics.md §5): program order, what counts as a race and
// what a report names, keep_going and its deduplication, and that retiring covered access
// records loses no race. Semaphore edges are in race_semaphore_test.cpp, DMA edges in
// race_dma_test.cpp.

#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

TEST_CASE("One core's load then store of the same rectangle is no race", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  CHECK(m.store(a, x, rect1(0, 8), 10));
  CHECK(m.load(a, x, rect1(0, 4), 11));
  CHECK(m.store(a, x, rect1(0, 4), 12));
  CHECK(m.store(a, x, rect1(2, 4), 13));
  CHECK(m.load(a, x, rect1(0, 8), 14));
  CHECK(m.reports().empty());
}

TEST_CASE("Two cores storing overlapping rectangles unsynchronised is a data_race naming both", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  fill(x, 0);
  m.machine.set_step(3);
  REQUIRE(m.store(a, x, rect1(0, 4), 10, 5.0f));
  m.machine.set_step(7);
  CHECK_FALSE(m.store(b, x, rect1(2, 4), 20, 9.0f));
  CHECK(m.failure.verdict == Verdict::data_race);
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message, Catch::Contains("hbm buffer 1 'x'"));
  CHECK_THAT(m.failure.message, Catch::Contains("store [0:4] by device 0 core 0 at race.cpp:10, step 3"));
  CHECK_THAT(m.failure.message, Catch::Contains("store [2:6] by device 0 core 1 at race.cpp:20, step 7"));
  // Without keep_going the racing store does not happen.
  CHECK(contents(x) == std::vector<float>{5, 5, 5, 5, 4, 5, 6, 7});
}

TEST_CASE("A load racing with another core's store names the load and the store", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{2, 4});
  m.machine.set_step(1);
  REQUIRE(m.load(b, x, Rect{2, {0, 1}, {2, 2}}, 30));
  m.machine.set_step(2);
  CHECK_FALSE(m.store(a, x, Rect{2, {1, 2}, {1, 2}}, 31));
  CHECK(m.failure.verdict == Verdict::data_race);
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message, Catch::Contains("load [0:2, 1:3] by device 0 core 1 at race.cpp:30, step 1"));
  CHECK_THAT(m.failure.message, Catch::Contains("store [1:2, 2:4] by device 0 core 0 at race.cpp:31, step 2"));
}

TEST_CASE("Loads never race with loads", "[model][race]") {
  RaceMachine m(spec_of(1, 3));
  Buffer* x = m.host("x", Shape{8});
  CHECK(m.load(a, x, rect1(0, 8), 10));
  CHECK(m.load(b, x, rect1(2, 4), 20));
  CHECK(m.load(c, x, rect1(0, 8), 30));
  CHECK(m.load(a, x, rect1(1, 1), 11));
  CHECK(m.reports().empty());
  // ...but a store after them races.
  CHECK_FALSE(m.store(c, x, rect1(0, 1), 31));
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("Disjoint rectangles never race, also when they share rows or columns", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  Buffer* y = m.host("y", Shape{4, 4});
  CHECK(m.store(a, x, rect1(0, 4), 10));
  CHECK(m.store(b, x, rect1(4, 4), 20));
  CHECK(m.store(a, y, Rect{2, {0, 0}, {4, 2}}, 11));  // left columns
  CHECK(m.store(b, y, Rect{2, {0, 2}, {4, 2}}, 21));  // right columns
  CHECK(m.load(b, y, Rect{2, {1, 2}, {3, 2}}, 22));
  // The same rectangle of a different buffer is no conflict either.
  Buffer* z = m.host("z", Shape{8});
  CHECK(m.store(b, z, rect1(0, 4), 23));
  CHECK(m.reports().empty());
  CHECK_FALSE(m.store(b, y, Rect{2, {3, 1}, {1, 2}}, 24));  // crosses into a's columns
  CHECK(m.failure.verdict == Verdict::data_race);
}

TEST_CASE("Zero-size rectangles never race", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  Buffer* y = m.host("y", Shape{4, 4});
  REQUIRE(m.store(a, x, rect1(0, 8), 10));
  CHECK(m.store(b, x, rect1(3, 0), 20));
  CHECK(m.load(b, x, rect1(8, 0), 21));
  REQUIRE(m.store(a, y, Rect::whole(Shape{4, 4}), 11));
  CHECK(m.store(b, y, Rect{2, {1, 1}, {0, 3}}, 22));
  // A zero-size store does not retire a record it does not cover: the race is still found.
  CHECK(m.store(a, x, rect1(2, 0), 12));
  CHECK_FALSE(m.load(b, x, rect1(2, 1), 23));
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("race.cpp:10"));
}

TEST_CASE("With keep_going each racing pair of lines is reported once and the access still happens", "[model][race]") {
  RaceMachine m(spec_of(1, 3), SemaphoreClocks::precise, true);
  Buffer* x = m.host("x", Shape{8});
  fill(x, 0);
  REQUIRE(m.store(a, x, rect1(0, 8), 10, 1.0f));
  CHECK(m.store(b, x, rect1(0, 4), 20, 2.0f));
  CHECK(contents(x) == std::vector<float>{2, 2, 2, 2, 1, 1, 1, 1});
  REQUIRE(m.reports().size() == 1);
  CHECK(m.store(c, x, rect1(4, 4), 30, 3.0f));  // races with line 10 only
  CHECK(contents(x) == std::vector<float>{2, 2, 2, 2, 3, 3, 3, 3});
  REQUIRE(m.reports().size() == 2);
  CHECK_THAT(m.reports()[0], Catch::Contains("race.cpp:10") && Catch::Contains("race.cpp:20"));
  CHECK_THAT(m.reports()[1], Catch::Contains("race.cpp:10") && Catch::Contains("race.cpp:30"));
  CHECK_THAT(m.reports()[1], !Catch::Contains("race.cpp:20"));

  // The same two lines again, in either order, on the same buffer: no new report.
  CHECK(m.store(b, x, rect1(1, 2), 20, 4.0f));
  CHECK(m.store(a, x, rect1(2, 1), 10, 5.0f));
  CHECK(m.reports().size() == 2);
  CHECK(contents(x) == std::vector<float>{2, 4, 5, 2, 3, 3, 3, 3});
  // The same lines on another buffer are a different race.
  Buffer* y = m.host("y", Shape{8});
  REQUIRE(m.store(a, y, rect1(0, 2), 10));
  CHECK(m.store(b, y, rect1(1, 2), 20));
  REQUIRE(m.reports().size() == 3);
  CHECK_THAT(m.reports()[2], Catch::Contains("'y'"));
}

TEST_CASE("Without keep_going there are no kept reports, only the failure", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  REQUIRE(m.store(a, x, rect1(0, 8), 10));
  CHECK_FALSE(m.load(b, x, rect1(0, 1), 20));
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK(m.reports().empty());
}

TEST_CASE("A write covering an older write retires it but the race is still found", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  REQUIRE(m.store(a, x, rect1(0, 8), 11));  // covers line 10's rectangle
  CHECK_FALSE(m.load(b, x, rect1(2, 1), 20));
  CHECK(m.failure.verdict == Verdict::data_race);
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message,
             Catch::Contains("store [0:8]") && Catch::Contains("race.cpp:11") && Catch::Contains("load [2:3]"));
}

TEST_CASE("A read covering an older read retires it but a later unsynchronised write still races", "[model][race]") {
  SECTION("the covering read is by the same core") {
    RaceMachine m(spec_of(1, 2));
    Buffer* x = m.host("x", Shape{8});
    REQUIRE(m.load(a, x, rect1(2, 2), 10));
    REQUIRE(m.load(a, x, rect1(0, 8), 11));
    CHECK_FALSE(m.store(b, x, rect1(3, 1), 20));
    CHECK(m.failure.verdict == Verdict::data_race);
    CHECK_THAT(m.failure.message, Catch::Contains("store [3:4]"));
  }
  SECTION("the covering read is by a core ordered after the first") {
    RaceMachine m(spec_of(1, 3));
    Buffer* x = m.host("x", Shape{8});
    const int sem = semaphore(m.machine, a);
    REQUIRE(m.load(a, x, rect1(2, 2), 10));
    m.signal(a, sem, b, 1);
    m.wait(b, sem, 1);
    REQUIRE(m.load(b, x, rect1(0, 8), 20));  // knows line 10's read: retires it
    CHECK_FALSE(m.store(c, x, rect1(2, 1), 30));
    CHECK(m.failure.verdict == Verdict::data_race);
    CHECK_THAT(m.failure.message, Catch::Contains("store [2:3]") && Catch::Contains("device 0 core 2"));
  }
}

TEST_CASE("A read covering an older write does not retire the write", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  REQUIRE(m.store(a, x, rect1(2, 2), 10));
  REQUIRE(m.load(a, x, rect1(0, 8), 11));
  CHECK_FALSE(m.load(b, x, rect1(3, 1), 20));  // a read races only with the store
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("store [2:4]") && Catch::Contains("race.cpp:10"));
}
