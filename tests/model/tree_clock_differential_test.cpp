// Tree clocks (model/tree_clock.hpp) against plain vector clocks (a vector of entries, copied
// whole), on random programs that keep the tree clock's contract: actors that release (a copy
// of their clock, then a tick of their own entry) and acquire (a join of some earlier copy),
// clocks with a virtual root that gather releases (a cell's accumulated clock, a barrier's) and
// are joined by actors, and lanes that go on from the actor that learnt their last release.
// After every operation each clock reads the same as its plain twin at every slot: the pruning
// of joins and the sharing of copies must be invisible.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/tree_clock.hpp"
#include "scheduler/rng.hpp"
#include "tests/model/plain_clock.hpp"

namespace {

using weft::model::TreeClock;
using weft::model::TreeClockArena;

using weft::testing::PlainClock;

struct Twin {
  explicit Twin(TreeClockArena& arena) : tree(arena) {}
  TreeClock tree;
  PlainClock plain;
};

void require_same(const Twin& twin, std::size_t slots) {
  for (std::size_t slot = 0; slot < slots; ++slot) {
    CAPTURE(slot);
    REQUIRE(twin.tree.get(slot) == twin.plain.get(slot));
  }
}

}  // namespace

TEST_CASE("Tree clocks read as plain vector clocks under random releases, acquires and gathers", "[model][race]") {
  constexpr std::size_t actors = 7, lanes = 5, gatherers = 2, operations = 600;
  constexpr std::size_t slots = actors + lanes;
  for (std::uint64_t seed = 0; seed < 150; ++seed) {
    CAPTURE(seed);
    weft::scheduler::Rng random(seed);
    TreeClockArena arena;
    std::vector<Twin> clocks(slots, Twin(arena));  // actors, then lanes
    for (std::size_t actor = 0; actor < actors; ++actor) {
      clocks[actor].tree.set(actor, 1);
      clocks[actor].plain.set(actor, 1);
    }
    std::vector<Twin> released;  // copies made at releases, joined later
    std::vector<Twin> gathered(gatherers, Twin(arena));
    // Per lane: the actor that may continue it (learnt its last release), if any; a lane
    // never run may be taken by anyone.
    std::vector<std::optional<std::size_t>> lane_owner(lanes);
    std::vector<bool> lane_run(lanes, false);
    const auto release = [&](std::size_t who) {
      released.push_back(clocks[who]);
      clocks[who].tree.tick(who);
      clocks[who].plain.set(who, clocks[who].plain.get(who) + 1);
    };
    for (std::size_t step = 0; step < operations; ++step) {
      CAPTURE(step);
      const std::size_t actor = random.below(actors);
      switch (random.below(6)) {
        case 0:
          release(actor);
          break;
        case 1:
          if (!released.empty()) {
            const std::size_t which = random.below(released.size());
            clocks[actor].tree.join(released[which].tree);
            clocks[actor].plain.join(released[which].plain);
            if (random.below(2) == 0) released.erase(released.begin() + static_cast<std::ptrdiff_t>(which));
          }
          break;
        case 2: {  // a release into a gathering clock
          Twin& into = gathered[random.below(gatherers)];
          into.tree.join(clocks[actor].tree);
          into.plain.join(clocks[actor].plain);
          clocks[actor].tree.tick(actor);
          clocks[actor].plain.set(actor, clocks[actor].plain.get(actor) + 1);
          break;
        }
        case 3: {
          const Twin& from = gathered[random.below(gatherers)];
          clocks[actor].tree.join(from.tree);
          clocks[actor].plain.join(from.plain);
          break;
        }
        case 4: {  // an actor starts a lane's next run: it knows every earlier release of the lane
          const std::size_t lane = random.below(lanes);
          if (lane_run[lane] && lane_owner[lane] != actor) break;
          const std::size_t own = actors + lane;
          Twin& clock = clocks[own];
          const std::uint32_t next = clock.plain.get(own) + 1;
          clock.tree.continue_from(clocks[actor].tree, own, next);
          clock.plain = clocks[actor].plain;
          clock.plain.set(own, next);
          clocks[actor].tree.tick(actor);
          clocks[actor].plain.set(actor, clocks[actor].plain.get(actor) + 1);
          lane_run[lane] = true;
          lane_owner[lane].reset();
          // A release midway, acquired by whoever takes it later, then the final one, acquired
          // at once by someone, who may continue the lane.
          released.push_back(clock);
          clock.tree.tick(own);
          clock.plain.set(own, next + 1);
          const std::size_t taker = random.below(actors);
          Twin last = clock;
          clock.tree.tick(own);
          clock.plain.set(own, next + 2);
          clocks[taker].tree.join(last.tree);
          clocks[taker].plain.join(last.plain);
          lane_owner[lane] = taker;
          break;
        }
        case 5:
          if (!released.empty() && random.below(2) == 0)
            released.front().tree.clear(), released.erase(released.begin());
          break;
      }
      for (const Twin& twin : clocks) require_same(twin, slots);
      for (const Twin& twin : gathered) require_same(twin, slots);
      for (const Twin& twin : released) require_same(twin, slots);
    }
  }
}
