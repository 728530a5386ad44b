// The footprint dependence relation (scheduler/footprint.hpp), mode by mode: what the explorer's
// independence rests on.

#include <catch2/catch.hpp>

#include "scheduler/footprint.hpp"

namespace {

using namespace weft::scheduler;

const ObjectId buffer{1, 7, 0, 0};
const ObjectId other_buffer{1, 8, 0, 0};
const ObjectId cell{2, 2000, 3, 0};

Box rows(std::int64_t start, std::int64_t size) {
  Box box;
  box.rank = 2;
  box.start = {start, 0, 0, 0};
  box.size = {size, 128, 0, 0};
  return box;
}

Touch touch(ObjectId object, TouchMode mode, Box box = {}, std::int64_t amount = 0, bool ordered = false) {
  return {object, mode, box, amount, ordered};
}

}  // namespace

TEST_CASE("Reads of one region commute, a write conflicts with an overlapping read or write",
          "[scheduler][footprint]") {
  CHECK_FALSE(conflict(touch(buffer, TouchMode::read, rows(0, 8)), touch(buffer, TouchMode::read, rows(0, 8))));
  CHECK(conflict(touch(buffer, TouchMode::read, rows(0, 8)), touch(buffer, TouchMode::write, rows(4, 8))));
  CHECK(conflict(touch(buffer, TouchMode::write, rows(4, 8)), touch(buffer, TouchMode::read, rows(0, 8))));
  CHECK(conflict(touch(buffer, TouchMode::write, rows(0, 1)), touch(buffer, TouchMode::write, rows(0, 1))));
}

TEST_CASE("Accesses of disjoint regions, of other objects, or of empty regions never conflict",
          "[scheduler][footprint]") {
  CHECK_FALSE(conflict(touch(buffer, TouchMode::write, rows(0, 4)), touch(buffer, TouchMode::write, rows(4, 4))));
  CHECK_FALSE(conflict(touch(buffer, TouchMode::write, rows(0, 8)), touch(other_buffer, TouchMode::write, rows(0, 8))));
  CHECK_FALSE(conflict(touch(buffer, TouchMode::write, rows(2, 0)), touch(buffer, TouchMode::write, rows(0, 8))));
}

TEST_CASE("A whole-object touch, or boxes of different ranks, are taken to meet", "[scheduler][footprint]") {
  CHECK(conflict(touch(buffer, TouchMode::write), touch(buffer, TouchMode::read, rows(100, 1))));
  Box flat;
  flat.rank = 1;
  flat.size = {1, 0, 0, 0};
  CHECK(conflict(touch(buffer, TouchMode::write, flat), touch(buffer, TouchMode::read, rows(100, 1))));
}

TEST_CASE("Counter touches: adds commute unless ordered, a take conflicts with everything, observes commute",
          "[scheduler][footprint]") {
  const Touch add = touch(cell, TouchMode::add, {}, 1);
  const Touch ordered_add = touch(cell, TouchMode::add, {}, 1, true);
  const Touch take = touch(cell, TouchMode::take, {}, 1);
  const Touch observe = touch(cell, TouchMode::observe);
  CHECK_FALSE(conflict(add, add));
  CHECK(conflict(add, ordered_add));
  CHECK(conflict(ordered_add, add));
  CHECK(conflict(add, take));
  CHECK(conflict(take, take));
  CHECK(conflict(take, observe));
  CHECK(conflict(observe, add));
  CHECK_FALSE(conflict(observe, observe));
  CHECK_FALSE(conflict(add, touch(ObjectId{2, 2000, 4, 0}, TouchMode::take, {}, 1)));  // another core's cell
}

TEST_CASE("Two footprints are dependent when any pair of their touches conflicts", "[scheduler][footprint]") {
  Footprint signal{{touch(cell, TouchMode::add, {}, 1)}};
  Footprint store{{touch(buffer, TouchMode::write, rows(0, 8))}};
  Footprint load_then_wait{{touch(buffer, TouchMode::read, rows(8, 8)), touch(cell, TouchMode::take, {}, 1)}};
  CHECK_FALSE(dependent(signal, store));
  CHECK(dependent(signal, load_then_wait));
  CHECK_FALSE(dependent(store, load_then_wait));
  CHECK_FALSE(dependent(Footprint{}, store));
}
