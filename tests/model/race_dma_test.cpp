// Race detection, DMA edges (docs/semantics.md §5): dma_start orders the starter's past before both
// phases; the read phase precedes the write phase; the send signal carries the read phase and
// the recv signal the write phase; every DMA has its own clock slot, so DMAs race with cores and
// with one another exactly.

#include <catch2/catch.hpp>

#include <string>

#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

constexpr std::int64_t four_floats = 16;  // bytes a 4-element DMA signals

// A one-core machine with a local source and target (vmem [8]) and recv/send semaphores.
struct LocalDma {
  explicit LocalDma(SemaphoreClocks mode = SemaphoreClocks::precise, bool keep_going = false)
      : m(spec_of(1, 1), mode, keep_going) {
    src = alloc(m.machine, a, Space::vmem, Shape{8});
    dst = alloc(m.machine, a, Space::vmem, Shape{8});
    recv = semaphore(m.machine, a);
    send = semaphore(m.machine, a);
  }
  int start(const Rect& from, const Rect& to, int line, bool with_send = true) {
    return m.start_dma(a, slice(src, from), slice(dst, to), 0, recv, with_send ? send : -1, line);
  }
  RaceMachine m;
  Buffer* src;
  Buffer* dst;
  int recv;
  int send;
};

}  // namespace

TEST_CASE("dma_start orders everything the starter did before it before both phases", "[model][race]") {
  LocalDma t;
  REQUIRE(t.m.store(a, t.src, rect1(0, 8), 10));
  REQUIRE(t.m.load(a, t.dst, rect1(0, 8), 11));
  REQUIRE(t.m.store(a, t.dst, rect1(0, 4), 12));
  const int id = t.start(rect1(0, 4), rect1(0, 4), 13);
  CHECK(t.m.phase(id));
  CHECK(t.m.phase(id));
}

TEST_CASE("A DMA is not ordered after another core's unsynchronised store to its source", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  Buffer* y = m.host("y", Shape{8});
  const int recv = semaphore(m.machine, a);
  REQUIRE(m.store({0, 1}, x, rect1(2, 2), 20));
  const int id = m.start_dma(a, slice(x, rect1(0, 4)), slice(y, rect1(0, 4)), 0, recv, -1, 10);
  CHECK_FALSE(m.phase(id));
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("DMA read [0:4] by DMA 0 (started by device 0 core 0) at race.cpp:10"));
}

TEST_CASE("A store to the source after dma_start races with the read phase", "[model][race]") {
  LocalDma t;
  const int id = t.start(rect1(0, 4), rect1(0, 4), 10);
  SECTION("the store comes before the read phase") {
    REQUIRE(t.m.store(a, t.src, rect1(3, 2), 11));
    CHECK_FALSE(t.m.phase(id));
    CHECK(t.m.failure.verdict == Verdict::data_race);
    INFO(t.m.failure.message);
    CHECK_THAT(t.m.failure.message, Catch::Contains("store [3:5] by device 0 core 0 at race.cpp:11") &&
                                        Catch::Contains("DMA read [0:4] by DMA 0") && Catch::Contains("race.cpp:10"));
  }
  SECTION("the store comes after the read phase, without waiting on send") {
    REQUIRE(t.m.phase(id));
    CHECK_FALSE(t.m.store(a, t.src, rect1(3, 2), 11));
    CHECK(t.m.failure.verdict == Verdict::data_race);
  }
}

TEST_CASE("A load of the target without waiting races with the write phase", "[model][race]") {
  LocalDma t;
  const int id = t.start(rect1(0, 4), rect1(2, 4), 10);
  REQUIRE(t.m.phase(id));
  SECTION("the load comes before the write phase") {
    REQUIRE(t.m.load(a, t.dst, rect1(5, 3), 11));
    CHECK_FALSE(t.m.phase(id));
    CHECK(t.m.failure.verdict == Verdict::data_race);
    CHECK_THAT(t.m.failure.message, Catch::Contains("load [5:8]") && Catch::Contains("DMA write [2:6] by DMA 0"));
  }
  SECTION("the load comes after the write phase") {
    REQUIRE(t.m.phase(id));
    CHECK_FALSE(t.m.load(a, t.dst, rect1(5, 3), 11));
    CHECK(t.m.failure.verdict == Verdict::data_race);
  }
  SECTION("a load of the part of the target the DMA does not write is no race") {
    REQUIRE(t.m.phase(id));
    CHECK(t.m.load(a, t.dst, rect1(6, 2), 11));
  }
}

TEST_CASE("Waiting on the recv semaphore orders both phases before later accesses", "[model][race]") {
  for (SemaphoreClocks mode : {SemaphoreClocks::precise, SemaphoreClocks::accumulate}) {
    for (bool with_send : {true, false}) {
      LocalDma t(mode);
      const int id = t.start(rect1(0, 4), rect1(0, 4), 10, with_send);
      REQUIRE(t.m.phase(id));
      REQUIRE(t.m.phase(id));
      t.m.wait(a, t.recv, four_floats);
      CHECK(t.m.load(a, t.dst, rect1(0, 4), 11));
      CHECK(t.m.store(a, t.dst, rect1(0, 4), 12));
      CHECK(t.m.store(a, t.src, rect1(0, 4), 13));
    }
  }
}

TEST_CASE("Waiting on the send semaphore orders the read phase but not the write phase", "[model][race]") {
  LocalDma t;
  const int id = t.start(rect1(0, 4), rect1(0, 4), 10);
  REQUIRE(t.m.phase(id));
  REQUIRE(t.m.phase(id));
  t.m.wait(a, t.send, four_floats);
  CHECK(t.m.store(a, t.src, rect1(0, 4), 11));
  CHECK_FALSE(t.m.load(a, t.dst, rect1(0, 4), 12));
  CHECK(t.m.failure.verdict == Verdict::data_race);
  CHECK_THAT(t.m.failure.message, Catch::Contains("DMA write [0:4] by DMA 0") && Catch::Contains("load [0:4]"));
}

TEST_CASE("Two DMAs of different cores writing the same rectangle unordered race", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{8});
  Buffer* y = m.host("y", Shape{8});
  const int recv = semaphore(m.machine, a);
  const int first = m.start_dma(a, slice(x, rect1(0, 4)), slice(y, rect1(0, 4)), 0, recv, -1, 10);
  const int second = m.start_dma({0, 1}, slice(x, rect1(4, 4)), slice(y, rect1(2, 4)), 0, recv, -1, 20);
  REQUIRE(m.phase(first));
  REQUIRE(m.phase(second));  // two reads of x: no race
  REQUIRE(m.phase(first));
  CHECK_FALSE(m.phase(second));
  CHECK(m.failure.verdict == Verdict::data_race);
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message, Catch::Contains("DMA write [0:4] by DMA 0 (started by device 0 core 0)"));
  CHECK_THAT(m.failure.message, Catch::Contains("DMA write [2:6] by DMA 1 (started by device 0 core 1)"));
}

TEST_CASE("Two DMAs of one starter writing the same rectangle race unless a wait orders them", "[model][race]") {
  LocalDma t;
  const int first = t.start(rect1(0, 4), rect1(0, 4), 10);
  SECTION("unordered") {
    const int second = t.start(rect1(4, 4), rect1(0, 4), 11);
    REQUIRE(t.m.phase(second));
    REQUIRE(t.m.phase(second));
    REQUIRE(t.m.phase(first));
    CHECK_FALSE(t.m.phase(first));
    CHECK(t.m.failure.verdict == Verdict::data_race);
    CHECK_THAT(t.m.failure.message, Catch::Contains("by DMA 0") && Catch::Contains("by DMA 1"));
  }
  SECTION("the second starts after waiting on the first's recv") {
    REQUIRE(t.m.phase(first));
    REQUIRE(t.m.phase(first));
    t.m.wait(a, t.recv, four_floats);
    const int second = t.start(rect1(4, 4), rect1(0, 4), 11);
    CHECK(t.m.phase(second));
    CHECK(t.m.phase(second));
  }
}

TEST_CASE("A DMA reading what another DMA writes, unordered, races", "[model][race]") {
  LocalDma t;
  const int writer = t.start(rect1(0, 4), rect1(0, 4), 10);
  const int reader = t.m.start_dma(a, slice(t.dst, rect1(2, 2)), slice(t.src, rect1(6, 2)), 0, t.recv, -1, 11);
  REQUIRE(t.m.phase(writer));
  REQUIRE(t.m.phase(writer));
  CHECK_FALSE(t.m.phase(reader));
  CHECK(t.m.failure.verdict == Verdict::data_race);
  CHECK_THAT(t.m.failure.message,
             Catch::Contains("DMA write [0:4] by DMA 0") && Catch::Contains("DMA read [2:4] by DMA 1"));
}

TEST_CASE("Every DMA of one starter has its own clock slot, so no race between them is hidden", "[model][race]") {
  constexpr int count = 8;
  LocalDma t(SemaphoreClocks::precise, true);
  int ids[count];
  for (int k = 0; k < count; ++k) ids[k] = t.start(rect1(0, 4), rect1(0, 4), 100 + k);
  for (int k = 0; k < count; ++k) REQUIRE(t.m.phase(ids[k]));  // reads only: no race
  CHECK(t.m.reports().empty());
  for (int k = 0; k < count; ++k) CHECK(t.m.phase(ids[k]));
  // Each write races with every earlier one, each pair on its own pair of lines.
  CHECK(t.m.reports().size() == count * (count - 1) / 2);
  bool first_and_last = false;
  for (const std::string& report : t.m.reports())
    first_and_last = first_and_last || (report.find("race.cpp:100") != std::string::npos &&
                                        report.find("race.cpp:107") != std::string::npos);
  CHECK(first_and_last);
}

TEST_CASE("Many DMAs of one starter to disjoint targets do not race, one overlapping write does", "[model][race]") {
  RaceMachine m(spec_of(1, 1));
  Buffer* src = alloc(m.machine, a, Space::vmem, Shape{64});
  Buffer* dst = alloc(m.machine, a, Space::vmem, Shape{64});
  const int recv = semaphore(m.machine, a);
  for (int k = 0; k < 32; ++k) {
    const int id = m.start_dma(a, slice(src, rect1(2 * k, 2)), slice(dst, rect1(2 * k, 2)), 0, recv, -1, 10);
    REQUIRE(m.phase(id));
    REQUIRE(m.phase(id));
  }
  const int late = m.start_dma(a, slice(src, rect1(0, 2)), slice(dst, rect1(41, 2)), 0, recv, -1, 11);
  REQUIRE(m.phase(late));
  CHECK_FALSE(m.phase(late));
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("by DMA 20 ") && Catch::Contains("by DMA 32 "));
}

TEST_CASE("A remote DMA's write is ordered before the receiving core's load after its recv wait", "[model][race]") {
  RaceMachine m(spec_of(2, 1));
  const CoreId remote{1, 0};
  Buffer* src = alloc(m.machine, a, Space::vmem, Shape{8});
  Buffer* dst = alloc(m.machine, a, Space::vmem, Shape{8});
  alloc(m.machine, remote, Space::vmem, Shape{8});
  Buffer* remote_dst = alloc(m.machine, remote, Space::vmem, Shape{8});
  const int recv = semaphore(m.machine, a);
  const int id = m.start_dma(a, slice(src, rect1(0, 4)), slice(dst, rect1(4, 4)), 1, recv, -1, 10);
  REQUIRE(m.phase(id));
  REQUIRE(m.phase(id));
  SECTION("after the wait") {
    m.wait(remote, recv, four_floats);
    CHECK(m.load(remote, remote_dst, rect1(0, 8), 20));
    CHECK(m.store(remote, remote_dst, rect1(4, 4), 21));
  }
  SECTION("without the wait") {
    CHECK_FALSE(m.load(remote, remote_dst, rect1(6, 1), 20));
    CHECK(m.failure.verdict == Verdict::data_race);
    CHECK_THAT(m.failure.message, Catch::Contains("on device 1") && Catch::Contains("device 1 core 0"));
  }
  SECTION("the starter's own target buffer is untouched, so its load is no race") {
    CHECK(m.load(a, dst, rect1(0, 8), 12));
  }
}
