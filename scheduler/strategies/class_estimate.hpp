#pragma once
// How many interleaving classes an exploration has, estimated from the part of its tree run so
// far: for a progress line and the summary of an exploration cut short. It never decides
// anything (it reads the explorer's counts, the explorer does not read it), so it cannot change
// a run.
//
// The tree: each state on the current run's path has branches (its wakeup tree's: the one the
// run followed, the ones waiting) and branches already explored to their end, whose complete
// runs are counted. Each complete run is a leaf, one class. Up the path of a run that just
// ended, the size of the subtree at each state is estimated as
//
//     T(leaf) = 1,   T(s) = c + T(s+1) + w * (c + T(s+1)) / (d + 1)
//
// (d branches done with c runs under them, the current branch estimated at T(s+1), w branches
// waiting, each taken to be the mean of those done and the current; a state with none done and
// none waiting passes T(s+1) up as it is, so a caller may leave it out). With no branch done
// anywhere (the first run) this is Knuth's estimator (D. E. Knuth, "Estimating the efficiency
// of backtrack programs", 1975): the product of the branching factors along the path. Later, it
// is Knuth's estimate with every subtree already explored counted as the runs it held, not
// estimated. So:
//   - on a uniform tree (every state at one depth with as many branches), it is the exact
//     count from the first run on, once the branches are known;
//   - once no branch waits on the path (the last run), it is the exact count of runs;
//   - it is deterministic: a function of the path's counts.
// It is not exact in between, for two reasons: the subtrees of a state differ in size (in
// Optimal-DPOR the first branch of a state often holds more than the later ones, whose sleep
// sets prune them), and a state gains branches as later runs under it find races (a wakeup tree
// grows while its subtree is explored), so branches not yet known are not counted. The second
// makes it low early on; the first, high in the middle. docs/exploring.md measures how far off it
// is, part of the way through. Only the one-thread explorer makes it: several workers sharing a
// tree (shared_wakeup_tree.hpp) are not on one path.

#include <cstdint>
#include <span>

namespace weft::scheduler {

// A state on the path of the run that just ended.
struct EstimateLevel {
  std::uint64_t done_branches = 0;  // branches from here explored to their end
  std::uint64_t done_runs = 0;      // the complete runs under them
  std::uint64_t waiting = 0;        // branches from here still to run (not the current one)
};

// T(path[0]): the estimated complete runs of the whole tree, the run that just ended a leaf of
// it. path[0] is the first state (the root).
double estimate_classes(std::span<const EstimateLevel> path);

}  // namespace weft::scheduler
