// Masked loads, stores and swaps on the Machine: only the kept rectangles are bounds-checked,
// copied and reported as accesses; what orders them (race edges) is what orders plain ones,
// and elements a mask leaves out are in no race.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "machine_test_support.hpp"
#include "model/mask.hpp"
#include "race_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

std::vector<Rect> parts_of(const Rect& rect, std::vector<char> keep) {
  std::vector<Rect> parts;
  mask_parts(rect, reinterpret_cast<const bool*>(keep.data()), parts);
  return parts;
}

std::byte* bytes(std::vector<float>& values) { return reinterpret_cast<std::byte*>(values.data()); }
const std::byte* bytes(const std::vector<float>& values) { return reinterpret_cast<const std::byte*>(values.data()); }

}  // namespace

TEST_CASE("A masked store writes the kept elements only, and reports only them as accesses", "[model][mask]") {
  Machine machine(spec_of(1, 1));
  Recorder recorder;
  machine.set_observer(&recorder);
  Buffer* x = alloc(machine, a, Space::vmem, Shape{2, 4});
  fill(x, 0);
  const Rect whole = Rect::whole(x->info().shape);
  const auto parts = parts_of(whole, {1, 1, 0, 0, 1, 1, 0, 0});  // columns 0..1
  const std::vector<float> in{-1, -2, -3, -4, -5, -6, -7, -8};
  Failure failure;
  REQUIRE(store(machine, a, slice(x, whole), parts, bytes(in), here, failure));
  CHECK(contents(x) == std::vector<float>{-1, -2, 2, 3, -5, -6, 6, 7});
  REQUIRE(recorder.accesses.size() == 1);
  CHECK(recorder.accesses[0].is_write);
  CHECK(recorder.accesses[0].rect == Rect{2, {0, 0}, {2, 2}});
}

TEST_CASE("A masked load copies the kept elements and leaves the rest of the tile alone", "[model][mask]") {
  Machine machine(spec_of(1, 1));
  Buffer* x = alloc(machine, a, Space::vmem, Shape{6});
  fill(x, 10);
  std::vector<float> out(4, -1.0f);  // the kernel's `other`
  Failure failure;
  const Rect rect = rect1(1, 4);
  REQUIRE(load(machine, a, slice(x, rect), parts_of(rect, {0, 1, 0, 1}), bytes(out), here, failure));
  CHECK(out == std::vector<float>{-1, 12, -1, 14});
}

TEST_CASE("Masked-off elements are never out of bounds, a kept one is", "[model][mask]") {
  Machine machine(spec_of(1, 1));
  Buffer* x = alloc(machine, a, Space::vmem, Shape{6});
  fill(x, 10);
  const Rect past_end = rect1(4, 4);  // elements 4..7 of a 6-element buffer
  std::vector<float> out(4, 0.0f);
  const std::vector<float> in{1, 2, 3, 4};
  Failure failure;
  CHECK(load(machine, a, slice(x, past_end), parts_of(past_end, {1, 1, 0, 0}), bytes(out), here, failure));
  CHECK(store(machine, a, slice(x, past_end), parts_of(past_end, {1, 1, 0, 0}), bytes(in), here, failure));
  CHECK(contents(x) == std::vector<float>{10, 11, 12, 13, 1, 2});
  for (const bool store : {false, true}) {
    CAPTURE(store);
    const auto parts = parts_of(past_end, {1, 0, 1, 0});
    const bool ok = store ? test::store(machine, a, slice(x, past_end), parts, bytes(in), here, failure)
                          : test::load(machine, a, slice(x, past_end), parts, bytes(out), here, failure);
    CHECK_FALSE(ok);
    CHECK(failure.verdict == Verdict::out_of_bounds);
    CHECK_THAT(failure.message,
               Catch::Contains(store ? "stores unmasked elements [6:7]" : "loads unmasked elements [6:7]") &&
                   Catch::Contains("shape is [6]"));
  }
  CHECK(contents(x) == std::vector<float>{10, 11, 12, 13, 1, 2});  // the failed store wrote nothing, not even [4]
}

TEST_CASE("Under out_of_bounds_reads = uninitialized a kept element outside reads the uninitialized value",
          "[model][mask]") {
  Machine machine(spec_of(1, 1, OutOfBoundsReads::uninitialized));
  Buffer* x = alloc(machine, a, Space::vmem, Shape{6});
  fill(x, 10);
  const Rect past_end = rect1(4, 4);
  std::vector<float> out(4, -1.0f);
  Failure failure;
  REQUIRE(load(machine, a, slice(x, past_end), parts_of(past_end, {1, 0, 1, 0}), bytes(out), here, failure));
  CHECK(out[0] == 14.0f);
  CHECK(out[1] == -1.0f);
  CHECK(std::isnan(out[2]));
  CHECK(out[3] == -1.0f);
}

TEST_CASE("A swap returns the old kept values and the new elsewhere, and writes only the kept", "[model][mask]") {
  Machine machine(spec_of(1, 1));
  Buffer* x = alloc(machine, a, Space::vmem, Shape{4});
  fill(x, 10);
  const Rect rect = rect1(0, 4);
  const std::vector<float> in{1, 2, 3, 4};
  std::vector<float> out = in;
  Failure failure;
  REQUIRE(swap(machine, a, slice(x, rect), parts_of(rect, {1, 0, 0, 1}), bytes(in), bytes(out), here, failure));
  CHECK(out == std::vector<float>{10, 2, 3, 13});
  CHECK(contents(x) == std::vector<float>{1, 11, 12, 4});
  const Rect over = rect1(2, 4);
  CHECK_FALSE(swap(machine, a, slice(x, over), std::vector<Rect>{over}, bytes(in), bytes(out), here, failure));
  CHECK_THAT(failure.message, Catch::Contains("swaps [2:6]"));
}

TEST_CASE("Complementary masks of two unordered cores do not race, overlapping ones do", "[model][mask][race]") {
  const Rect rect = rect1(0, 4);
  for (const bool overlap : {false, true}) {
    CAPTURE(overlap);
    RaceMachine m(spec_of(1, 2));
    Buffer* x = m.host("x", Shape{4});
    const std::vector<float> in(4, 1.0f);
    std::vector<float> out(4);
    REQUIRE(store(m.machine, a, slice(x, rect), parts_of(rect, {1, 1, 0, 0}), bytes(in), at(10), m.failure));
    const auto other = parts_of(rect, {static_cast<char>(overlap), 0, 1, 1});
    CHECK(swap(m.machine, b, slice(x, rect), other, bytes(in), bytes(out), at(20), m.failure) == !overlap);
    if (overlap) CHECK_THAT(m.failure.message, Catch::Contains("store [0:2]") && Catch::Contains("store [0:1]"));
  }
}

TEST_CASE("A masked load after a wait is ordered after the masked store before the signal", "[model][mask][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{2, 4});
  const int sem = semaphore(m.machine, a);
  const Rect rect = Rect::whole(Shape{2, 4});
  const std::vector<float> in(8, 1.0f);
  std::vector<float> out(8);
  const auto lower_left = parts_of(rect, {0, 0, 0, 0, 1, 1, 0, 0});
  REQUIRE(store(m.machine, a, slice(x, rect), lower_left, bytes(in), at(10), m.failure));
  SECTION("signalled and waited: ordered") {
    m.signal(a, sem, b, 1);
    m.wait(b, sem, 1);
    CHECK(load(m.machine, b, slice(x, rect), parts_of(rect, {1, 1, 1, 1, 1, 1, 1, 1}), bytes(out), at(20), m.failure));
  }
  SECTION("not waited: the kept elements race, the others do not") {
    CHECK(load(m.machine, b, slice(x, rect), parts_of(rect, {1, 1, 1, 1, 0, 0, 1, 1}), bytes(out), at(20), m.failure));
    CHECK_FALSE(
        load(m.machine, b, slice(x, rect), parts_of(rect, {0, 0, 0, 0, 0, 1, 0, 0}), bytes(out), at(21), m.failure));
    CHECK(m.failure.verdict == Verdict::data_race);
  }
}
