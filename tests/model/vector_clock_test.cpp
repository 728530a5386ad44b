// VectorClock and Epoch: missing entries read as 0, set/tick grow the clock, join is the
// element-wise maximum whatever the sizes, and knows() compares one epoch with one entry; and
// clocks that share storage (copies) never see each other's later changes.

#include <catch2/catch.hpp>

#include "model/vector_clock.hpp"

using namespace weft::model;

TEST_CASE("A fresh vector clock is empty and reads 0 everywhere", "[model][race]") {
  ClockArena arena;
  const VectorClock clock(arena);
  CHECK(clock.size() == 0);
  CHECK(clock.get(0) == 0);
  CHECK(clock.get(1000) == 0);
}

TEST_CASE("Setting an entry grows the clock with zeros and keeps other entries", "[model][race]") {
  ClockArena arena;
  VectorClock clock(arena);
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
  ClockArena arena;
  VectorClock clock(arena);
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
  ClockArena arena;
  VectorClock shorter(arena);
  shorter.set(0, 1);
  shorter.set(1, 5);
  VectorClock longer(arena);
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
    const VectorClock empty(arena);
    longer.join(empty);
    CHECK(longer.size() == 3);
    CHECK(longer.get(1) == 2);
    VectorClock copy(arena);
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
  ClockArena arena;
  VectorClock clock(arena);
  clock.set(4, 6);
  const Epoch epoch = clock.epoch(4);
  CHECK(epoch.slot == 4);
  CHECK(epoch.clock == 6);
  const Epoch missing = clock.epoch(9);
  CHECK(missing.slot == 9);
  CHECK(missing.clock == 0);
}

TEST_CASE("A clock knows an epoch exactly when its entry for that slot has reached it", "[model][race]") {
  ClockArena arena;
  VectorClock clock(arena);
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

  VectorClock other(arena);
  other.set(7, 4);
  CHECK_FALSE(clock.knows(other.epoch(7)));
  clock.join(other);
  CHECK(clock.knows(other.epoch(7)));
  other.tick(7);
  CHECK_FALSE(clock.knows(other.epoch(7)));  // a later event of the other actor is unknown
}

TEST_CASE("A copy shares its clock's entries but not their later changes", "[model][race]") {
  ClockArena arena;
  VectorClock clock(arena);
  for (std::uint32_t slot = 0; slot < 100; ++slot) clock.set(slot, slot);
  const VectorClock copy = clock;
  clock.tick(7);      // an override: the storage is shared with the copy
  clock.set(200, 1);  // beyond the shared storage
  CHECK(clock.get(7) == 8);
  CHECK(copy.get(7) == 7);
  CHECK(clock.size() == 201);
  CHECK(copy.size() == 100);
  CHECK(copy.get(200) == 0);

  SECTION("more changes than overrides: the clock takes storage of its own") {
    for (std::uint32_t slot = 10; slot < 20; ++slot) clock.tick(slot);
    for (std::uint32_t slot = 10; slot < 20; ++slot) {
      CHECK(clock.get(slot) == slot + 1);
      CHECK(copy.get(slot) == slot);
    }
    CHECK(clock.get(7) == 8);
    CHECK(clock.get(200) == 1);
    CHECK(copy.get(7) == 7);
  }
  SECTION("a join into a shared clock leaves the copy alone") {
    VectorClock other(arena);
    other.set(50, 1000);
    other.set(120, 3);
    clock.join(other);
    CHECK(clock.get(50) == 1000);
    CHECK(clock.get(120) == 3);
    CHECK(clock.get(7) == 8);
    CHECK(clock.get(200) == 1);
    CHECK(clock.get(99) == 99);
    CHECK(copy.get(50) == 50);
    CHECK(copy.get(120) == 0);
  }
  SECTION("joining a copy of itself with overrides on both sides takes each side's higher entries") {
    VectorClock later = copy;
    later.tick(3);
    later.tick(3);
    clock.join(later);
    CHECK(clock.get(3) == 5);
    CHECK(clock.get(7) == 8);
    later.join(clock);
    CHECK(later.get(7) == 8);
    CHECK(later.get(3) == 5);
    CHECK(later.get(200) == 1);
    CHECK(copy.get(3) == 3);
  }
  SECTION("a clock without storage joining one with storage reads the same") {
    VectorClock fresh(arena);
    fresh.set(2, 40);
    fresh.join(clock);
    CHECK(fresh.get(2) == 40);
    CHECK(fresh.get(7) == 8);
    CHECK(fresh.get(99) == 99);
    CHECK(fresh.get(200) == 1);
    fresh.tick(99);
    CHECK(clock.get(99) == 99);
  }
  SECTION("an override may lower an entry of the shared storage, and a join keeps it lowered") {
    clock.set(60, 1);
    CHECK(clock.get(60) == 1);
    VectorClock other(arena);
    other.set(61, 2);
    clock.join(other);
    CHECK(clock.get(60) == 1);
    CHECK(clock.get(61) == 61);
  }
}

TEST_CASE("Clock storage is recycled: joins and copies in a loop stop allocating storage", "[model][race]") {
  ClockArena arena;
  VectorClock a(arena), b(arena);
  a.set(500, 1);
  b.set(400, 1);
  for (int round = 0; round < 100; ++round) {
    const VectorClock kept = a;  // shares, so the join below writes fresh storage
    a.tick(1);
    a.join(b);
    b.join(kept);
    b.tick(2);
  }
  CHECK(a.get(1) == 100);
  CHECK(b.get(2) == 100);
  CHECK(b.get(1) == 99);
  CHECK(a.get(2) == 99);
  CHECK(arena.storages() <= 4);
}

TEST_CASE("A vector clock handle is at most 64 bytes: every pending signal keeps one", "[model][race]") {
  CHECK(sizeof(VectorClock) <= 64);
}
