// ClockBlocks: the bitmap names the blocks written, a join and a copy carry only the other's
// blocks, and a reset leaves all zeros with the length kept (so recycled storage reads as new).

#include <catch2/catch.hpp>

#include <cstdint>

#include "model/clock_blocks.hpp"

using weft::model::ClockBlocks;

TEST_CASE("Clock blocks mark the blocks written and join over the other's blocks", "[model][race]") {
  ClockBlocks a, b;
  a.write(3, 5);
  a.write(200, 7);  // block 3
  CHECK(a.size == 201);
  CHECK(a.values.size() == 256);
  CHECK(a.blocks[0] == 0b1001u);
  b.write(70, 2);  // block 1
  b.write(3, 9);
  a.join(b);
  CHECK(a.values[3] == 9);
  CHECK(a.values[70] == 2);
  CHECK(a.values[200] == 7);
  CHECK(a.blocks[0] == 0b1011u);
  CHECK(a.size == 201);
  b.join(a);
  CHECK(b.size == 201);
  CHECK(b.values[200] == 7);

  ClockBlocks far;
  far.write(64 * 70, 1);  // a second bitmap word
  CHECK(far.blocks.size() == 2);
  CHECK(far.blocks[1] == std::uint64_t{1} << 6);
  a.join(far);
  CHECK(a.values[64 * 70] == 1);
  CHECK(a.blocks[1] == std::uint64_t{1} << 6);
}

TEST_CASE("Reset clock blocks read as zeros at their old length, and a copy takes the other's blocks",
          "[model][race]") {
  ClockBlocks a;
  a.write(130, 4);
  a.write(1, 1);
  a.reset();
  CHECK(a.size == 0);
  CHECK(a.values.size() == 192);
  for (const std::uint32_t value : a.values) CHECK(value == 0);
  CHECK(a.blocks[0] == 0);

  ClockBlocks b;
  b.write(65, 3);
  a.assign(b);
  CHECK(a.size == 66);
  CHECK(a.values[65] == 3);
  CHECK(a.blocks[0] == 0b10u);
  a.reset();
  for (const std::uint32_t value : a.values) CHECK(value == 0);
}
