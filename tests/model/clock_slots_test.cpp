// ClockSlots: every actor a distinct slot, a group's cores adjacent in device order, each
// 64-slot block dealt to one group, lanes in their opener's group; one core a device numbers
// cores then lanes as a plain count.

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>

#include "model/clock_slots.hpp"

using weft::model::ClockSlots;

TEST_CASE("Clock slots put a core index's cores in adjacent slots, blocks apart from the others", "[model][race]") {
  ClockSlots slots(100, 4);  // 400 cores: a group of 100 cores spans two blocks
  std::set<std::uint32_t> seen;
  for (int core = 0; core < 400; ++core) CHECK(seen.insert(slots.core(core)).second);
  for (int group = 0; group < 4; ++group)
    for (int device = 1; device < 100; ++device)
      CHECK(slots.core(device * 4 + group) == slots.core((device - 1) * 4 + group) + 1);
  CHECK(slots.core(0) == 0);
  CHECK(slots.core(1) == 128);  // group 1 starts on the block after group 0's two
  CHECK(slots.core(2) == 256);

  // Lanes fill the rest of their opener's group's last block, then a fresh block of its own.
  const std::uint32_t first = slots.open_lane(4 * 7 + 2);  // a core of group 2
  CHECK(first == 256 + 100);
  for (int lane = 1; lane < 28; ++lane) CHECK(slots.open_lane(2) == first + static_cast<std::uint32_t>(lane));
  const std::uint32_t next_block = slots.open_lane(6);
  CHECK(next_block == 8 * 64);  // groups hold blocks 0..7; 256+100+28 filled group 2's second block
  CHECK(slots.open_lane(1) == 128 + 100);
}

TEST_CASE("With one core a device, clock slots count cores then lanes", "[model][race]") {
  ClockSlots slots(8, 1);
  for (int core = 0; core < 8; ++core) CHECK(slots.core(core) == static_cast<std::uint32_t>(core));
  CHECK(slots.open_lane(3) == 8);
  CHECK(slots.open_lane(0) == 9);
}
