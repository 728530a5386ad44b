// ClockBlocks: only the blocks written are stored, in block order; a join gains the other's
// blocks (moving its own into place) and takes the maximum over them; a reset empties the
// storage and keeps its capacity; and under random writes, joins, copies and resets the entries
// read as a plain vector clock's, with every block not held all zeros.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "model/clock_blocks.hpp"
#include "scheduler/rng.hpp"
#include "tests/model/plain_clock.hpp"

using weft::model::ClockBlocks;

TEST_CASE("Clock blocks store the blocks written and join over the other's blocks", "[model][race]") {
  ClockBlocks a, b;
  a.write(3, 5);
  a.write(200, 7);  // block 3
  CHECK(a.size == 201);
  CHECK(a.blocks() == 2);
  CHECK(a.values.size() == 128);
  CHECK(a.holds(0));
  CHECK_FALSE(a.holds(1));
  CHECK(a.holds(3));
  CHECK(a.get(3) == 5);
  CHECK(a.get(200) == 7);
  CHECK(a.get(100) == 0);
  b.write(70, 2);  // block 1
  b.write(3, 9);
  a.join(b);  // gains block 1, between its own two
  CHECK(a.get(3) == 9);
  CHECK(a.get(70) == 2);
  CHECK(a.get(200) == 7);
  CHECK(a.blocks() == 3);
  CHECK(a.holds(1));
  CHECK(a.size == 201);
  b.join(a);
  CHECK(b.size == 201);
  CHECK(b.get(200) == 7);

  ClockBlocks far;
  far.write(64 * 70, 1);  // a second bitmap word, one block stored
  CHECK(far.words.size() == 2);
  CHECK(far.blocks() == 1);
  CHECK(far.holds(70));
  a.join(far);
  CHECK(a.get(64 * 70) == 1);
  CHECK(a.holds(70));
  CHECK(a.words[1].before == 3);
  CHECK(a.get(3) == 9);
  CHECK(a.get(200) == 7);
  far.join(a);  // gains blocks below its own
  CHECK(far.get(3) == 9);
  CHECK(far.get(70) == 2);
  CHECK(far.get(64 * 70) == 1);
  CHECK(far.blocks() == 4);
}

TEST_CASE("A zero written to a block not held stores nothing, and reset clock blocks keep their capacity",
          "[model][race]") {
  ClockBlocks a;
  a.write(64 * 500, 0);
  CHECK(a.blocks() == 0);
  CHECK(a.size == 64 * 500 + 1);
  a.write(130, 4);
  a.write(1, 1);
  const std::size_t capacity = a.values.capacity();
  a.reset();
  CHECK(a.size == 0);
  CHECK(a.blocks() == 0);
  CHECK(a.values.capacity() == capacity);
  CHECK(a.get(130) == 0);
  CHECK(a.get(1) == 0);

  ClockBlocks b;
  b.write(65, 3);
  a.assign(b);
  CHECK(a.size == 66);
  CHECK(a.get(65) == 3);
  CHECK(a.blocks() == 1);
  CHECK(a.holds(1));
  a.reset();
  CHECK(a.get(65) == 0);
}

TEST_CASE("Clock blocks read as a plain vector clock under random writes, joins, copies and resets", "[model][race]") {
  // Blocks spread over three bitmap words, so that joins gain blocks below, between and above
  // those held, and the words' counts of earlier blocks move.
  constexpr std::size_t spread[] = {0, 1, 2, 63, 64, 65, 100, 128, 130, 191};
  constexpr std::size_t clocks = 5;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    CAPTURE(seed);
    weft::scheduler::Rng random(seed);
    std::vector<ClockBlocks> blocks(clocks);
    std::vector<weft::testing::PlainClock> plain(clocks);
    for (std::size_t step = 0; step < 300; ++step) {
      const std::size_t a = random.below(clocks), b = random.below(clocks);
      const std::size_t slot = spread[random.below(std::size(spread))] * 64 + random.below(64);
      const auto value = static_cast<std::uint32_t>(random.below(20));
      switch (random.below(5)) {
        case 0:
        case 1:
          blocks[a].write(slot, value);
          plain[a].set(slot, value);
          break;
        case 2:
          blocks[a].join(blocks[b]);
          plain[a].join(plain[b]);
          break;
        case 3:
          blocks[a].assign(blocks[b]);
          plain[a] = plain[b];
          break;
        case 4:
          if (random.below(4) == 0) {
            blocks[a].reset();
            plain[a] = {};
          }
          break;
      }
      for (std::size_t c = 0; c < clocks; ++c) {
        CAPTURE(step, c);
        REQUIRE(blocks[c].values.size() == blocks[c].blocks() * 64);
        for (const std::size_t block : spread) {
          bool zeros = true;
          for (std::size_t s = block * 64; s < block * 64 + 64; ++s) {
            REQUIRE(blocks[c].get(s) == plain[c].get(s));
            zeros = zeros && plain[c].get(s) == 0;
          }
          if (blocks[c].holds(block)) REQUIRE(block * 64 < blocks[c].size);
          if (!zeros) REQUIRE(blocks[c].holds(block));
        }
        REQUIRE(blocks[c].size >= plain[c].size());
      }
    }
  }
}
