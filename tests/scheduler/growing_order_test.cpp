// A happens-before grown from the last run's over the events two runs share
// (scheduler/strategies/growing_order.hpp) against one made from nothing, on random runs that go
// on from a random point of the run before: the same clocks, chains and races, run after run.

#include <catch2/catch.hpp>

#include <vector>

#include "scheduler/strategies/growing_order.hpp"
#include "tests/scheduler/random_run.hpp"

namespace {

using namespace weft::scheduler;

void require_same_order(const HappensBefore& grown, const HappensBefore& made) {
  const HappensBefore::Clocks a = grown.clocks(), b = made.clocks();
  REQUIRE(a.chain == b.chain);
  REQUIRE(a.position == b.position);
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.clock == b.clock);
  REQUIRE(grown.chains() == made.chains());
  for (std::size_t j = 0; j < a.chain.size(); ++j) {
    CAPTURE(j);
    REQUIRE(std::vector<std::size_t>(grown.races(j).begin(), grown.races(j).end()) ==
            std::vector<std::size_t>(made.races(j).begin(), made.races(j).end()));
  }
}

}  // namespace

TEST_CASE("A happens-before grown over the events two runs share is the one made from nothing",
          "[scheduler][explorer]") {
  Rng rng(20261203);
  std::size_t grows = 0, reused = 0, lanes_fell = 0, races = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const auto cores = 2 + static_cast<std::uint32_t>(trial % 3);
    const bool views = trial % 2 == 1;
    GrowingOrder growing;
    // The run in hand, in place (as the explorer keeps it), and the maker as it was before each
    // of its events, to go on another way from any of them.
    std::vector<Event> run;
    std::vector<RunMaker> before;
    RunMaker maker(rng, cores, views);
    std::size_t ran = 0;
    for (int generation = 0; generation < 8; ++generation) {
      std::size_t kept = 0;
      if (generation > 0) {
        // As the explorer does: keep the run up to a state before one of its transitions that
        // ran, and go on from there another way; a few transitions left enabled at the end.
        kept = rng.below(ran);
        maker = before[kept].drawing_from(rng);
        run.resize(kept);
        before.erase(before.begin() + static_cast<std::ptrdiff_t>(kept), before.end());
      }
      const std::size_t length = kept + 1 + rng.below(60);
      while (run.size() < length) {
        before.push_back(maker);
        run.push_back(maker.next());
      }
      ran = length - rng.below(3);
      CAPTURE(trial, generation, kept, ran, length);
      const HappensBefore& grown = growing.grow(run, ran, kept);
      const HappensBefore made(run, ran);
      require_same_order(grown, made);
      ++grows;
      if (growing.reused() > 0) ++reused;
      if (kept > 0 && kept < ran && growing.reused() == 0) ++lanes_fell;
      for (std::size_t j = 0; j < run.size(); ++j) races += made.races(j).size();
    }
  }
  INFO(grows << " grows, " << reused << " reused a prefix, " << lanes_fell << " started from nothing");
  CHECK(reused * 2 > grows);  // most grows keep a prefix
  CHECK(lanes_fell > 0);      // and a DMA that ended in one run's prefix only makes it start again
  CHECK(races > 1000);
}
