// VectorClock and Epoch: missing entries read as 0, set/tick grow the clock, join is the
// element-wise maximum whatever the sizes, and knows() compares one epoch with one entry.

#include <catch2/catch.hpp>

#include "model/vector_clock.hpp"

using namespace weft::model;

TEST_CASE("A fresh vector clock is empty and reads 0 everywhere", "[model][race]") {
  const VectorClock clock;
  CHECK(clock.size() == 0);
  CHECK(clock.get(0) == 0);
  CHECK(clock.get(1000) == 0);
}

TEST_CASE("Setting an entry grows the clock with zeros and keeps other entries", "[model][race]") {
  VectorClock clock;
  clock.set(3, 5);
  CHECK(clock.size() == 4);
  CHECK(clock.get(0) == 0);
  CHECK(clock.get(2) == 0);
  CHECK(clock.get(3) == 5);
  clock.set(1, 9);
  CHECK(clock.size() == 4);  // setting inside does not grow
  CHECK(clock.get(1) == 9);
  CHECK(clock.get(3) == 5);
  clock.set(3, 2);  // set may lower an entry
  CHECK(clock.get(3) == 2);
}

TEST_CASE("Ticking adds one to a single entry, growing the clock if needed", "[model][race]") {
  VectorClock clock;
  clock.tick(2);
  CHECK(clock.size() == 3);
  CHECK(clock.get(2) == 1);
  clock.tick(2);
  clock.tick(0);
  CHECK(clock.get(2) == 2);
  CHECK(clock.get(0) == 1);
  CHECK(clock.get(1) == 0);
}

TEST_CASE("Joining takes the element-wise maximum, also for clocks of different sizes", "[model][race]") {
  VectorClock shorter;
  shorter.set(0, 1);
  shorter.set(1, 5);
  VectorClock longer;
  longer.set(0, 3);
  longer.set(1, 2);
  longer.set(2, 7);

  SECTION("a shorter clock joining a longer one grows to its size") {
    shorter.join(longer);
    CHECK(shorter.size() == 3);
    CHECK(shorter.get(0) == 3);
    CHECK(shorter.get(1) == 5);
    CHECK(shorter.get(2) == 7);
  }
  SECTION("a longer clock joining a shorter one keeps its size and its higher entries") {
    longer.join(shorter);
    CHECK(longer.size() == 3);
    CHECK(longer.get(0) == 3);
    CHECK(longer.get(1) == 5);
    CHECK(longer.get(2) == 7);
  }
  SECTION("joining the empty clock changes nothing, and the empty clock becomes a copy") {
    const VectorClock empty;
    longer.join(empty);
    CHECK(longer.size() == 3);
    CHECK(longer.get(1) == 2);
    VectorClock copy;
    copy.join(shorter);
    CHECK(copy.size() == 2);
    CHECK(copy.get(0) == 1);
    CHECK(copy.get(1) == 5);
  }
  SECTION("join is idempotent") {
    shorter.join(longer);
    shorter.join(longer);
    CHECK(shorter.get(0) == 3);
    CHECK(shorter.get(2) == 7);
  }
}

TEST_CASE("An epoch is one slot of a clock and its value there", "[model][race]") {
  VectorClock clock;
  clock.set(4, 6);
  const Epoch epoch = clock.epoch(4);
  CHECK(epoch.slot == 4);
  CHECK(epoch.clock == 6);
  const Epoch missing = clock.epoch(9);
  CHECK(missing.slot == 9);
  CHECK(missing.clock == 0);
}

TEST_CASE("A clock knows an epoch exactly when its entry for that slot has reached it", "[model][race]") {
  VectorClock clock;
  clock.set(0, 2);
  clock.set(3, 1);
  CHECK(clock.knows(Epoch{0, 1}));
  CHECK(clock.knows(Epoch{0, 2}));
  CHECK_FALSE(clock.knows(Epoch{0, 3}));
  CHECK(clock.knows(Epoch{3, 1}));
  CHECK_FALSE(clock.knows(Epoch{3, 2}));
  CHECK_FALSE(clock.knows(Epoch{1, 1}));   // an entry inside the clock that is 0
  CHECK_FALSE(clock.knows(Epoch{40, 1}));  // a slot beyond the clock
  CHECK(clock.knows(Epoch{40, 0}));        // epoch 0 is before everything

  VectorClock other;
  other.set(7, 4);
  CHECK_FALSE(clock.knows(other.epoch(7)));
  clock.join(other);
  CHECK(clock.knows(other.epoch(7)));
  other.tick(7);
  CHECK_FALSE(clock.knows(other.epoch(7)));  // a later event of the other actor is unknown
}
