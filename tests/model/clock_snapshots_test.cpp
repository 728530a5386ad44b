// ClockSnapshots: a kept clock reads as the clock it copied, shares its storage until dropped,
// and a dropped index is reused (last dropped first) without growing the table.

#include <catch2/catch.hpp>

#include "model/clock_snapshots.hpp"
#include "model/vector_clock.hpp"

using weft::model::ClockArena;
using weft::model::ClockSnapshots;
using weft::model::VectorClock;

TEST_CASE("Kept clocks share their storage until dropped, and dropped indices are reused", "[model][race]") {
  ClockArena arena;
  VectorClock releaser(arena);
  releaser.set(3, 7);
  releaser.set(200, 2);
  ClockSnapshots<VectorClock> snapshots;
  const int first = snapshots.keep(releaser);
  releaser.tick(3);  // shared: an override, the kept clock unchanged
  CHECK(snapshots.at(first).get(3) == 7);
  CHECK(snapshots.at(first).get(200) == 2);
  CHECK(releaser.get(3) == 8);
  const int second = snapshots.keep(releaser);
  CHECK(second != first);
  CHECK(snapshots.at(second).get(3) == 8);
  const std::size_t storages = arena.storages();

  snapshots.drop(first);
  CHECK(snapshots.at(first).size() == 0);  // let go of its storage
  const int third = snapshots.keep(releaser);
  CHECK(third == first);  // the index dropped last, reused
  CHECK(snapshots.held_at_most() == 2);
  CHECK(snapshots.at(third).get(3) == 8);
  snapshots.drop(second);
  snapshots.drop(third);
  releaser.tick(200);  // the releaser's storage is its own again: written in place
  CHECK(releaser.get(200) == 3);
  CHECK(arena.storages() == storages);
}
