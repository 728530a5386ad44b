// The shared-storage vector clock (model/vector_clock.hpp) against a plain one (a vector of
// entries, copied whole), on random programs of copies, assignments, sets, ticks, joins and
// clears over a handful of clocks: after every operation each clock reads the same at every
// slot, knows the same epochs and has the same size. Copy-on-write, overrides and in-place
// joins and the block storage (model/clock_blocks.hpp) must be invisible.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/vector_clock.hpp"
#include "scheduler/rng.hpp"
#include "tests/model/plain_clock.hpp"

namespace {

using weft::model::ClockArena;
using weft::model::VectorClock;

using weft::testing::PlainClock;

}  // namespace

// `seeds` random programs of `operations` operations over slots `pick(random)` gives, every
// clock compared after each at every slot of `checked`.
template <class Pick>
void compare_with_plain_clocks(std::uint64_t seeds, std::size_t operations, Pick pick,
                               const std::vector<std::size_t>& checked) {
  constexpr std::size_t clocks = 6;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    weft::scheduler::Rng random(seed);
    ClockArena arena;
    std::vector<VectorClock> shared(clocks, VectorClock(arena));
    std::vector<PlainClock> plain(clocks);
    for (std::size_t step = 0; step < operations; ++step) {
      const std::size_t a = random.below(clocks), b = random.below(clocks);
      const std::size_t slot = pick(random);
      const auto value = static_cast<std::uint32_t>(random.below(50));
      switch (random.below(7)) {
        case 0:
          shared[a] = shared[b];
          plain[a] = plain[b];
          break;  // copy assignment
        case 1:
          shared[a] = VectorClock(shared[b]);
          plain[a] = plain[b];
          break;  // move of a copy
        case 2:
          shared[a].set(slot, value);
          plain[a].set(slot, value);
          break;
        case 3:
          shared[a].tick(slot);
          plain[a].set(slot, plain[a].get(slot) + 1);
          break;
        case 4:
        case 5:
          shared[a].join(shared[b]);
          plain[a].join(plain[b]);
          break;
        case 6:
          shared[a].clear();
          plain[a] = PlainClock{};
          break;
      }
      for (std::size_t c = 0; c < clocks; ++c) {
        CAPTURE(step, c);
        for (const std::size_t s : checked) {
          REQUIRE(shared[c].get(s) == plain[c].get(s));
          REQUIRE(shared[c].knows({static_cast<std::uint32_t>(s), plain[c].get(s)}));
          REQUIRE_FALSE(shared[c].knows({static_cast<std::uint32_t>(s), plain[c].get(s) + 1}));
        }
        REQUIRE(shared[c].size() >= plain[c].size());
        for (std::size_t s = plain[c].size(); s < shared[c].size(); ++s) REQUIRE(shared[c].get(s) == 0);
      }
    }
  }
}

TEST_CASE("The shared-storage vector clock reads as a plain vector clock under random operations", "[model][race]") {
  constexpr std::size_t slots = 24;
  std::vector<std::size_t> all(slots);
  for (std::size_t s = 0; s < slots; ++s) all[s] = s;
  compare_with_plain_clocks(
      200, 400, [](weft::scheduler::Rng& random) { return random.below(24); }, all);
}

TEST_CASE("The block-summarised vector clock reads as a plain one on slots spread over distant blocks",
          "[model][race]") {
  // Blocks 0, 1, 3 and 9 of 64 slots (model/clock_blocks.hpp): joins and copies that pass over
  // some blocks only, storage recycled at one length and reused at another.
  constexpr std::size_t blocks[] = {0, 1, 3, 9};
  std::vector<std::size_t> checked;
  for (const std::size_t block : blocks)
    for (std::size_t s = 0; s < 64; ++s) checked.push_back(block * 64 + s);
  checked.push_back(700);  // past every block
  compare_with_plain_clocks(
      40, 200, [&](weft::scheduler::Rng& random) { return blocks[random.below(4)] * 64 + random.below(64); }, checked);
}

TEST_CASE("The vector clock reads as a plain one on blocks spread over three bitmap words", "[model][race]") {
  // Storage holds only the blocks written (model/clock_blocks.hpp): joins that gain blocks below,
  // between and above those held move the held ones, across the words' counts of earlier blocks.
  constexpr std::size_t blocks[] = {0, 2, 63, 64, 65, 130, 200};
  std::vector<std::size_t> checked;
  for (const std::size_t block : blocks)
    for (std::size_t s = 0; s < 64; s += 7) checked.push_back(block * 64 + s);
  checked.push_back(64 * 300);  // past every block
  compare_with_plain_clocks(
      30, 200, [&](weft::scheduler::Rng& random) { return blocks[random.below(7)] * 64 + random.below(10) * 7; },
      checked);
}
