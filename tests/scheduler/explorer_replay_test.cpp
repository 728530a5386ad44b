// The explorer's replay of a run's forced prefix: a replayed step keeps the footprint the last run
// left for it (the same transition from the same state touches the same), so the process is asked
// only for the steps past the replay, and after a restore for every step of the first run.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/explorer.hpp"

namespace {

using namespace weft::scheduler;

// Cores that each take `steps` transitions, every one writing one shared object (so every
// interleaving is a class of its own), recording which of its steps it was asked footprints for.
class SharedWriters final : public Process {
 public:
  SharedWriters(std::uint32_t cores, int steps) : left_(cores, steps) {}
  std::span<const Actor> enabled_actors() override {
    enabled_.clear();
    for (std::uint32_t c = 0; c < left_.size(); ++c)
      if (left_[c] > 0) enabled_.push_back({Actor::Kind::core, c});
    return enabled_;
  }
  void run(Actor actor) override {
    REQUIRE(left_.at(actor.index) > 0);
    --left_[actor.index];
    ran.push_back(actor.index);
  }
  bool stopped() const override {
    for (const int left : left_)
      if (left > 0) return false;
    return true;
  }
  void footprint(Actor, Footprint& into) const override {
    asked.push_back(ran.size());
    into.touches = {{ObjectId{1, 0, 0, 0}, TouchMode::write}};
    into.creates = false;
  }

  std::vector<std::uint32_t> ran;          // the cores in the order they ran
  mutable std::vector<std::size_t> asked;  // the steps whose footprints were asked for

 private:
  std::vector<int> left_;
  std::vector<Actor> enabled_;
};

struct Run {
  std::vector<std::uint32_t> ran;
  std::vector<std::size_t> asked;
};

// Runs `explorer` to its end (or `limit` runs), a fresh process each run.
std::vector<Run> explore(Explorer& explorer, std::size_t limit = 1000) {
  std::vector<Run> runs;
  while (runs.size() < limit && explorer.next()) {
    SharedWriters process(2, 3);
    Schedule record;
    REQUIRE(run_steps(process, explorer.strategy(), 100, record).end == LoopEnd::stopped);
    explorer.finish(true);
    runs.push_back({process.ran, process.asked});
  }
  return runs;
}

// The steps asked for are those from `first` to the run's end, one each.
bool asked_from(const Run& run, std::size_t first) {
  if (run.asked.size() != run.ran.size() - first) return false;
  for (std::size_t k = 0; k < run.asked.size(); ++k)
    if (run.asked[k] != first + k) return false;
  return true;
}

}  // namespace

TEST_CASE("A replayed step keeps the last run's footprint: only the steps past the replay are asked for",
          "[scheduler][explorer]") {
  Explorer explorer(ExploreOptions{});
  const std::vector<Run> runs = explore(explorer);
  REQUIRE(explorer.exhausted());
  // Two cores of three dependent steps: C(6, 3) = 20 interleavings, each once.
  REQUIRE(runs.size() == 20);
  std::set<std::vector<std::uint32_t>> classes;
  for (const Run& run : runs) classes.insert(run.ran);
  CHECK(classes.size() == 20);

  CHECK(asked_from(runs.front(), 0));
  std::size_t asked = runs.front().asked.size(), steps = runs.front().ran.size();
  for (std::size_t r = 1; r < runs.size(); ++r) {
    // Asked from some step on, to the end; before it, the run replayed the last one's steps.
    const Run& run = runs[r];
    REQUIRE_FALSE(run.asked.empty());
    const std::size_t first = run.asked.front();
    CHECK(asked_from(run, first));
    CHECK(std::equal(run.ran.begin(), run.ran.begin() + static_cast<std::ptrdiff_t>(first), runs[r - 1].ran.begin()));
    asked += run.asked.size();
    steps += run.ran.size();
  }
  CHECK(asked < steps);  // the replays asked for nothing
}

TEST_CASE("An explorer restored from its state asks for every step of its first run, then runs as the original",
          "[scheduler][explorer]") {
  Explorer original(ExploreOptions{});
  const std::vector<Run> before = explore(original, 5);
  Explorer restored(ExploreOptions{}, original.state());
  const std::vector<Run> rest = explore(original), rest_restored = explore(restored);
  REQUIRE(rest.size() == 15);
  REQUIRE(rest_restored.size() == rest.size());
  for (std::size_t r = 0; r < rest.size(); ++r) CHECK(rest_restored[r].ran == rest[r].ran);
  CHECK(asked_from(rest_restored.front(), 0));  // no footprint kept across a restore
  CHECK_FALSE(asked_from(rest.front(), 0));     // the original keeps its replayed ones
  CHECK(before.size() == 5);
}
