// The shared-storage vector clock (model/vector_clock.hpp) against a plain one (a vector of
// entries, copied whole), on random programs of copies, assignments, sets, ticks, joins and
// clears over a handful of clocks: after every operation each clock reads the same at every
// slot, knows the same epochs and has the same size. Copy-on-write, overrides and in-place
// joins must be invisible.

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

TEST_CASE("The shared-storage vector clock reads as a plain vector clock under random operations", "[model][race]") {
  constexpr std::size_t clocks = 6, slots = 24, operations = 400;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    weft::scheduler::Rng random(seed);
    ClockArena arena;
    std::vector<VectorClock> shared(clocks, VectorClock(arena));
    std::vector<PlainClock> plain(clocks);
    for (std::size_t step = 0; step < operations; ++step) {
      const std::size_t a = random.below(clocks), b = random.below(clocks);
      const std::size_t slot = random.below(slots);
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
        for (std::size_t s = 0; s < slots; ++s) {
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
