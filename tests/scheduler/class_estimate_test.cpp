// The estimate of an exploration's size (scheduler/strategies/class_estimate.hpp): on trees of
// known size, walked depth first as the explorer walks its tree, with every branch known from
// the start; and on the explorer itself, where every interleaving is a branch known when its
// state is reached (the reduction off).

#include <catch2/catch.hpp>

#include <vector>

#include "scheduler/strategies/class_estimate.hpp"
#include "scheduler/strategies/explorer.hpp"
#include "scripted_process.hpp"

namespace {

using namespace weft::scheduler;
using weft::scheduler::testing::ScriptedProcess;

struct Tree {
  std::vector<Tree> children;  // none: a leaf, one complete run
};

Tree uniform(const std::vector<int>& branching, std::size_t depth = 0) {
  Tree tree;
  if (depth < branching.size())
    tree.children.assign(static_cast<std::size_t>(branching[depth]), uniform(branching, depth + 1));
  return tree;
}

std::uint64_t leaves(const Tree& tree) {
  if (tree.children.empty()) return 1;
  std::uint64_t count = 0;
  for (const Tree& child : tree.children) count += leaves(child);
  return count;
}

// Walks `tree` depth first, leftmost branch first, and estimates at every leaf, as the explorer
// does after each complete run.
void walk(const Tree& tree, std::vector<EstimateLevel>& path, std::vector<double>& estimates) {
  if (tree.children.empty()) {
    estimates.push_back(estimate_classes(path));
    return;
  }
  path.push_back({0, 0, tree.children.size() - 1});
  for (const Tree& child : tree.children) {
    const std::size_t before = estimates.size();
    walk(child, path, estimates);
    EstimateLevel& level = path.back();
    ++level.done_branches;
    level.done_runs += estimates.size() - before;
    if (level.waiting > 0) --level.waiting;
  }
  path.pop_back();
}

std::vector<double> estimates_of(const Tree& tree) {
  std::vector<EstimateLevel> path;
  std::vector<double> estimates;
  walk(tree, path, estimates);
  return estimates;
}

Actor core(std::uint32_t index) { return {Actor::Kind::core, index}; }

// Every interleaving of the scripted cores, one run each (no reduction): the estimate after each.
std::vector<double> explorer_estimates(const std::vector<int>& transitions) {
  ExploreOptions options;
  options.reduction = false;
  Explorer explorer(options);
  std::vector<double> estimates;
  while (explorer.next()) {
    ScriptedProcess process;
    for (std::size_t k = 0; k < transitions.size(); ++k)
      process.add(core(static_cast<std::uint32_t>(k)), transitions[k]);
    Schedule record;
    REQUIRE(run_steps(process, explorer.strategy(), 1000, record).end == LoopEnd::stopped);
    explorer.finish(true);
    estimates.push_back(explorer.estimated_classes());
  }
  REQUIRE(explorer.exhausted());
  return estimates;
}

}  // namespace

TEST_CASE("The class estimate of a uniform tree is its size after every run", "[scheduler][explorer][estimate]") {
  for (const std::vector<int>& branching :
       std::vector<std::vector<int>>{{3, 2, 4}, {1, 5, 1, 2}, {7}, {2, 2, 2, 2, 2, 2}}) {
    const Tree tree = uniform(branching);
    const auto estimates = estimates_of(tree);
    REQUIRE(estimates.size() == leaves(tree));
    for (const double estimate : estimates) CHECK(estimate == Approx(static_cast<double>(leaves(tree))));
  }
}

TEST_CASE("The class estimate of an uneven tree is Knuth's at first and the exact count at the end",
          "[scheduler][explorer][estimate]") {
  // The root has 3 branches: the first holds 4 leaves under 2 branches of 2, the second 1, the
  // third 3: 8 leaves.
  const Tree tree{{uniform({2, 2}), Tree{}, uniform({3})}};
  const auto estimates = estimates_of(tree);
  REQUIRE(estimates.size() == 8);
  CHECK(estimates.front() == Approx(3 * 2 * 2));  // the leftmost path's branching factors
  CHECK(estimates.back() == Approx(8));
  // After the first subtree (4 runs, all known), its siblings are taken to hold as many: 12.
  CHECK(estimates[3] == Approx(12));
  CHECK(estimates[4] == Approx(4 + 1 + 2.5));  // the second holds 1: the third is taken for 2.5
}

TEST_CASE("The explorer's class estimate: every interleaving of single steps is a uniform tree",
          "[scheduler][explorer][estimate]") {
  // Three cores of one step each: 3 x 2 x 1 interleavings, every state's branches known when it
  // is reached, so every estimate is 6.
  const auto uniform_runs = explorer_estimates({1, 1, 1});
  REQUIRE(uniform_runs.size() == 6);
  for (const double estimate : uniform_runs) CHECK(estimate == Approx(6));
  // Two cores of two steps each: 6 interleavings on an uneven tree, counted exactly at the end.
  const auto uneven_runs = explorer_estimates({2, 2});
  REQUIRE(uneven_runs.size() == 6);
  CHECK(uneven_runs.back() == Approx(6));
}
