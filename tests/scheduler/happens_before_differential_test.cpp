// The explorer's happens-before (scheduler/strategies/happens_before.hpp) against the plain
// construction it replaced, on random runs: every earlier transition of another process tested
// for dependence with e_j, every one of them joined into e_j's clock, and a race is a dependent
// predecessor that happens before no other direct predecessor. Both must order every pair alike
// and find the same races.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "scheduler/rng.hpp"
#include "scheduler/strategies/happens_before.hpp"
#include "tests/scheduler/random_run.hpp"

namespace {

using namespace weft::scheduler;

struct PlainOrder {
  std::vector<std::vector<bool>> before;  // before[i][k]
  std::vector<std::vector<std::size_t>> races;
};

PlainOrder plain_order(const std::vector<Event>& run) {
  const std::size_t n = run.size();
  std::vector<std::vector<std::size_t>> direct(n), conflicts(n);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> creator;
  std::map<std::uint32_t, std::uint32_t> creations;
  std::map<ProcessId, std::size_t> last;  // index + 1 of each process's latest transition
  PlainOrder plain{std::vector<std::vector<bool>>(n, std::vector<bool>(n, false)),
                   std::vector<std::vector<std::size_t>>(n)};
  for (std::size_t j = 0; j < n; ++j) {
    const ProcessId process = process_of(run[j].actor);
    std::size_t made_by = n;
    if (last[process] > 0) direct[j].push_back(last[process] - 1);
    if (run[j].actor.kind != Actor::Kind::core && last[process] == 0) {
      const auto made = creator.find({run[j].actor.owner, run[j].actor.sequence});
      if (made != creator.end()) direct[j].push_back(made_by = made->second);
    }
    for (std::size_t i = 0; i < j; ++i)
      if (!same_process(run[i].actor, run[j].actor) && i != made_by && dependent(run[i].footprint, run[j].footprint))
        conflicts[j].push_back(i);
    direct[j].insert(direct[j].end(), conflicts[j].begin(), conflicts[j].end());
    // Transitive closure, directly: i before j when i is a direct predecessor or before one.
    plain.before[j][j] = true;
    for (std::size_t k : direct[j])
      for (std::size_t i = 0; i <= k; ++i)
        if (plain.before[i][k]) plain.before[i][j] = true;
    for (std::size_t i : conflicts[j])
      if (std::none_of(direct[j].begin(), direct[j].end(), [&](std::size_t k) { return k != i && plain.before[i][k]; }))
        plain.races[j].push_back(i);
    last[process] = j + 1;
    if (run[j].footprint.creates && run[j].actor.kind == Actor::Kind::core)
      creator[{run[j].actor.owner, creations[run[j].actor.owner]++}] = j;
  }
  return plain;
}

// not_after(i, end), cut chain by chain, is what testing every later transition gives.
void require_not_after_is_plain(const HappensBefore& order, const PlainOrder& plain, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) {
    for (const std::size_t end : {length, (i + length) / 2 + 1}) {
      std::vector<std::size_t> want, got{length};  // a value already there stays first
      for (std::size_t k = i + 1; k < std::min(end, length); ++k)
        if (!plain.before[i][k]) want.push_back(k);
      order.not_after(i, end, got);
      CAPTURE(i, end);
      REQUIRE(got.front() == length);
      REQUIRE(std::vector<std::size_t>(got.begin() + 1, got.end()) == want);
    }
  }
}

}  // namespace

TEST_CASE("Happens-before walking back only what is concurrent equals the plain construction",
          "[scheduler][explorer]") {
  Rng rng(20261201);
  std::size_t races = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const auto run =
        random_run(rng, 2 + static_cast<std::uint32_t>(trial % 3), 5 + static_cast<std::size_t>(trial % 40));
    const HappensBefore order(run);
    const PlainOrder plain = plain_order(run);
    for (std::size_t k = 0; k < run.size(); ++k) {
      for (std::size_t i = 0; i <= k; ++i) {
        CAPTURE(trial, i, k);
        REQUIRE(order.before(i, k) == plain.before[i][k]);
      }
      CAPTURE(trial, k);
      REQUIRE(std::vector<std::size_t>(order.races(k).begin(), order.races(k).end()) == plain.races[k]);
      races += plain.races[k].size();
    }
    require_not_after_is_plain(order, plain, run.size());
  }
  CHECK(races > 1000);  // the runs do race
}

TEST_CASE("Happens-before over lanes and indexed touches equals the plain construction on long runs",
          "[scheduler][explorer]") {
  Rng rng(20261202);
  std::size_t races = 0, shared_lanes = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const auto run =
        random_run(rng, 2 + static_cast<std::uint32_t>(trial % 3), 60 + static_cast<std::size_t>(trial * 3), true);
    const HappensBefore order(run);
    const PlainOrder plain = plain_order(run);
    std::set<ProcessId> processes;
    for (const Event& event : run) processes.insert(process_of(event.actor));
    if (order.chains() < processes.size()) ++shared_lanes;
    for (std::size_t k = 0; k < run.size(); ++k) {
      for (std::size_t i = 0; i <= k; ++i) {
        CAPTURE(trial, i, k);
        REQUIRE(order.before(i, k) == plain.before[i][k]);
      }
      CAPTURE(trial, k);
      REQUIRE(std::vector<std::size_t>(order.races(k).begin(), order.races(k).end()) == plain.races[k]);
      races += plain.races[k].size();
    }
    require_not_after_is_plain(order, plain, run.size());
  }
  CHECK(races > 1000);
  CHECK(shared_lanes > 10);  // DMAs one after another do share lanes
}
