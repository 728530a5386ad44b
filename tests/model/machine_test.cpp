// Machine: loads and stores under each bounds policy, signals, and the Access each load and
// store reports to an observer. DMAs are in dma_test.cpp.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "machine_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

TEST_CASE("A load copies the rectangle and a store writes it", "[model]") {
  Machine machine(spec_of(1, 1));
  Buffer* b = alloc(machine, {0, 0}, Space::vmem, Shape{2, 3});
  fill(b, 10);
  Failure failure;
  std::vector<float> out(2);
  REQUIRE(load(machine, {0, 0}, slice(b, Rect{2, {1, 1}, {1, 2}}), reinterpret_cast<std::byte*>(out.data()), here,
               failure));
  CHECK(out == std::vector<float>{14, 15});
  const std::vector<float> in{-1, -2};
  REQUIRE(store(machine, {0, 0}, slice(b, Rect{2, {0, 0}, {2, 1}}), reinterpret_cast<const std::byte*>(in.data()), here,
                failure));
  CHECK(contents(b) == std::vector<float>{-1, 11, 12, -2, 14, 15});
}

TEST_CASE("An out-of-bounds load under raise is an out_of_bounds failure naming the access", "[model]") {
  Machine machine(spec_of(2, 2));
  Buffer* b = alloc(machine, {1, 1}, Space::vmem, Shape{4});
  std::vector<float> out(3, 7.0f);
  Failure failure;
  CHECK_FALSE(load(machine, {1, 1}, slice(b, rect1(2, 3)), reinterpret_cast<std::byte*>(out.data()), here, failure));
  CHECK(failure.verdict == Verdict::out_of_bounds);
  CHECK_THAT(failure.message, Catch::Contains("device 1 core 1") && Catch::Contains("loads") &&
                                  Catch::Contains("vmem buffer 100") && Catch::Contains("[2:5]") &&
                                  Catch::Contains("shape is [4]"));
  CHECK(out == std::vector<float>{7, 7, 7});
}

TEST_CASE("An out-of-bounds load under uninitialized returns the in-bounds part and fills the rest", "[model]") {
  Machine machine(spec_of(1, 1, OutOfBoundsReads::uninitialized));
  Buffer* b = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  fill(b, 1);
  Recorder recorder;
  machine.set_observer(&recorder);
  std::vector<float> out(4);
  Failure failure;
  REQUIRE(load(machine, {0, 0}, slice(b, rect1(2, 4)), reinterpret_cast<std::byte*>(out.data()), here, failure));
  CHECK(out[0] == 3.0f);
  CHECK(out[1] == 4.0f);
  CHECK(std::isnan(out[2]));
  CHECK(std::isnan(out[3]));
  // Only the elements that exist are reported as read.
  REQUIRE(recorder.accesses.size() == 1);
  CHECK(recorder.accesses[0].rect == rect1(2, 2));
}

TEST_CASE("An out-of-bounds store writes nothing and names device, core, space, buffer, range and shape", "[model]") {
  for (OutOfBoundsReads reads : {OutOfBoundsReads::raise, OutOfBoundsReads::uninitialized}) {
    Machine machine(spec_of(2, 1, reads));
    machine.memory().host_allocate("out", ElementType::f32, Shape{2, 4});
    Buffer* b = machine.memory().find_named(1, "out");
    fill(b, 0);
    const std::vector<float> before = contents(b);
    Recorder recorder;
    machine.set_observer(&recorder);
    const std::vector<float> in(6, -5.0f);
    Failure failure;
    CHECK_FALSE(store(machine, {1, 0}, slice(b, Rect{2, {1, 2}, {2, 3}}), reinterpret_cast<const std::byte*>(in.data()),
                      here, failure));
    CHECK(failure.verdict == Verdict::out_of_bounds);
    CHECK_THAT(failure.message, Catch::Contains("device 1 core 0") && Catch::Contains("stores") &&
                                    Catch::Contains("hbm buffer 1 'out'") && Catch::Contains("[1:3, 2:5]") &&
                                    Catch::Contains("shape is [2, 4]"));
    CHECK(contents(b) == before);
    CHECK(recorder.accesses.empty());
  }
}

TEST_CASE("Signals add to the target cell, a missing core or a non-positive increment is a kernel_error", "[model]") {
  Machine machine(spec_of(2, 2));
  const int s = semaphore(machine, {0, 0});
  Failure failure;
  REQUIRE(machine.add({0, 0}, s, {1, 1}, 3, failure));
  CHECK(machine.semaphores().count(s, 3) == 3);
  CHECK(machine.semaphores().count(s, 3) >= 3);
  CHECK_FALSE(machine.semaphores().count(s, 3) >= 4);
  machine.take(s, 3, 2);
  CHECK(machine.semaphores().count(s, 3) == 1);

  SECTION("a core index past the device's cores") {
    CHECK_FALSE(machine.add({0, 0}, s, {0, 2}, 1, failure));
    CHECK_THAT(failure.message, Catch::Contains("device 0 core 2") && Catch::Contains("does not exist"));
  }
  SECTION("a device past the mesh") {
    CHECK_FALSE(machine.add({0, 0}, s, {2, 0}, 1, failure));
    CHECK_THAT(failure.message, Catch::Contains("device 2 core 0") && Catch::Contains("does not exist"));
  }
  SECTION("a negative device") { CHECK_FALSE(machine.add({0, 0}, s, {-1, 0}, 1, failure)); }
  SECTION("a zero increment") {
    CHECK_FALSE(machine.add({0, 1}, s, {0, 0}, 0, failure));
    CHECK_THAT(failure.message, Catch::Contains("device 0 core 1") && Catch::Contains("by 0"));
  }
  SECTION("a negative increment") {
    CHECK_FALSE(machine.add({0, 1}, s, {0, 0}, -4, failure));
    CHECK_THAT(failure.message, Catch::Contains("by -4") && Catch::Contains("positive"));
  }
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message, Catch::Contains("semaphore 2000"));
  // Nothing changed anywhere.
  const auto cells = machine.semaphores().nonzero_cells();
  REQUIRE(cells.size() == 1);
  CHECK(cells[0].global_core == 3);
  CHECK(cells[0].count == 1);
}

TEST_CASE("Loads and stores each report one Access with the core, rectangle and read/write flag", "[model]") {
  Machine machine(spec_of(2, 2));
  Buffer* b = alloc(machine, {1, 0}, Space::vmem, Shape{3, 3});
  Recorder recorder;
  machine.set_observer(&recorder);
  std::vector<float> data(3, 1.0f);
  Failure failure;
  const Rect column{2, {0, 2}, {3, 1}};
  REQUIRE(load(machine, {1, 0}, slice(b, column), reinterpret_cast<std::byte*>(data.data()), here, failure));
  REQUIRE(store(machine, {1, 0}, slice(b, column), reinterpret_cast<const std::byte*>(data.data()),
                SourceLine{"k.cpp", 7}, failure));
  REQUIRE(recorder.accesses.size() == 2);
  for (const Access& access : recorder.accesses) {
    CHECK(access.who.kind == Accessor::Kind::core);
    CHECK(access.who.index == 2);  // global id of device 1 core 0
    CHECK(access.buffer == b);
    CHECK(access.rect == column);
  }
  CHECK_FALSE(recorder.accesses[0].is_write);
  CHECK(recorder.accesses[0].line.line == 42);
  CHECK(recorder.accesses[1].is_write);
  CHECK(recorder.accesses[1].line.line == 7);

  SECTION("an observer that reports a failure stops the store before it writes") {
    recorder.refuse = true;
    const std::vector<float> other(3, 99.0f);
    CHECK_FALSE(
        store(machine, {1, 0}, slice(b, column), reinterpret_cast<const std::byte*>(other.data()), here, failure));
    CHECK(failure.verdict == Verdict::data_race);
    CHECK(b->data<float>()[2] != 99.0f);
  }
}
