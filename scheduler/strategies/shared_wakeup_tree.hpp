#pragma once
// One exploration's states and wakeup trees, shared by several workers (`explore --jobs N`).
//
// The one-thread explorer (explorer.hpp) keeps only the states of its current run: depth first,
// a branch is done when the run leaves it, and every insertion lands on that run's path or in a
// branch still waiting. Several workers cannot split that tree into subtrees explored apart.
// Optimal-DPOR inserts into a waiting branch the reversals found by the runs of its earlier
// siblings (Abdulla et al., POPL 2014, Algorithm 2). So a subtree given away early misses the
// insertions its earlier siblings would have made into it. Measured: readers(4) explored 2,413
// of its 4,096 classes that way (docs/decisions/explore-jobs-shared-tree.md).
//
// Here the tree is one object, and workers claim its waiting branches, one run each. Serial order
// is kept where it matters, and the rest follows from it:
//
// - A state's children are claimed in their order, each only once the siblings before it have
//   had their first run. A claimed branch's sleep set holds every earlier sibling, with its
//   footprint as it ran, as it would after those siblings were done. The subtree of a sibling
//   still being explored is completed in the end, so what it covers is covered.
// - Insertions walk as the one-thread explorer's do, along the inserting run's path. At each
//   state they skip the siblings before the path, which are asleep there, and try those after
//   it in order. A later sibling may still be waiting (as in serial order), or it may already be
//   running or done, because a worker claimed it before the earlier one finished.
// - A later sibling that is running or done is entered anyway, down the states its runs left.
//   This is the *late* insertion: serial order would have put it there before that subtree
//   started. Where it finds no matching child, it becomes a new waiting child of that state,
//   which re-opens the state. Its run gets the state's sleep set with all of its children.
//   That is what serial order would give a child added last, and each of those children's
//   subtrees is complete in the end, late insertions included.
//
// So nothing a serial run inserts is lost. Where the one-thread explorer runs one run per class,
// so does this tree, and it runs the classes that explorer runs (on generated kernels small
// enough to enumerate: all of them). Under race detection, the counts can differ both ways; the
// verdicts do not. The tests are in
// tests/sim/explore_in_parallel_test.cpp: seeded orders of turns against the one-thread explorer
// and plain enumeration, class by class, and real threads.
//
// States left of every running and waiting branch can never be entered again. Insertions only
// go rightwards from a run's path, and new branches appear only where insertions land. So the
// tree is pruned there (as often as the caller asks); one worker alone keeps about what the
// one-thread explorer keeps.
// Between two workers, the states explored right of the leftmost live branch are kept until it
// has passed them.
//
// The tree has no lock of its own: the caller serialises every call (sim/engine/explore_in_parallel).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scheduler/strategies/race_analysis.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::scheduler {

class SharedWakeupTree {
  struct Node;

 public:
  // States of a run, each with the index of the child the run took from it.
  using Path = std::vector<std::pair<Node*, std::size_t>>;

  // Where a claimed run goes: through `path` (each state's child index), then the claimed child.
  struct Claim {
    std::vector<StableActor> forced;  // the actors of the path from the start, the claimed one last
    std::vector<Sleep> sleeps;        // the sleep set at each state of `forced`, earlier siblings in
    std::vector<StableActor> below;   // then the first branch of each level of the claimed branch's wakeup tree
    Path path;                        // the states of `forced` and their children
    bool first = false;               // the first run of all: nothing forced
  };
  // One finished run, as its worker saw it.
  struct Run {
    std::vector<Event> events;                      // the steps it took, then what it left enabled
    std::size_t length = 0;                         // steps taken
    std::vector<std::vector<StableActor>> enabled;  // at each state of the run
    std::vector<Sleep> sleeps;                      // at each state (a claim's, then inherited)
  };

  SharedWakeupTree();
  ~SharedWakeupTree();
  SharedWakeupTree(const SharedWakeupTree&) = delete;
  SharedWakeupTree& operator=(const SharedWakeupTree&) = delete;

  // A waiting branch to run, claimed, or nothing when none is waiting now. `near` is the
  // caller's last run (its states, deepest first): a branch there is preferred (less to replay,
  // as the one-thread explorer's depth-first order), else the shallowest on the leftmost path
  // that has one (the most work for a worker that has none).
  // `near_sleeps` (the sleep sets at the states of `near`) are lent to the claim where it goes the
  // same way.
  std::optional<Claim> claim(const Path* near, std::vector<Sleep>* near_sleeps);
  // A run's new states, made from the run alone, outside the caller's lock.
  class Prepared {
   public:
    Prepared();
    ~Prepared();
    Prepared(Prepared&&) noexcept;
    Prepared& operator=(Prepared&&) noexcept;

   private:
    friend class SharedWakeupTree;
    std::unique_ptr<Node> first;
    std::vector<Node*> states;
    Footprint claimed_footprint;
  };
  // Makes a claimed run's new states (after its race analysis: their enabled actors and sleep
  // sets are moved out of `run`; their footprints as they ran, without the touch of the run's
  // end that a live race analysis adds). Touches nothing of the tree.
  static Prepared prepare(const Claim& claim, Run& run);
  // Puts them into the tree, with the waiting branches of the claimed branch's wakeup tree, then
  // the run's reversals (RaceAnalysis, in order; `run` as analysed), and the run is done.
  // Returns the run's states with the children it took: the next claim's `near`, until the next
  // prune.
  Path finish(const Claim& claim, Prepared prepared, const Run& run, std::vector<Reversal>& reversals);
  // Frees the states no insertion can reach any more (left of every live branch).
  void prune();

  bool done() const;            // nothing waiting and nothing running
  std::size_t waiting() const;  // branches waiting to be claimed
  // What the tree holds: counted as states are added, grown and freed (vector capacities, not
  // the allocator's own overhead), so it costs nothing to ask after every run.
  std::size_t memory_bytes() const;

 private:
  struct Child;
  void count(Node* at, long waiting, long running);
  Path attach(const Claim& claim, Prepared prepared, std::size_t& below);
  Inserted insert_along(const Path& path, const Run& run, Reversal& reversal, std::vector<std::size_t>& added);
  // From child `from` on; a branch added on the inserting run's path is counted in
  // `added_on_path`, elsewhere up the tree at once.
  Inserted insert_into(Node* node, Sequence& v, std::size_t from = 0, std::size_t* added_on_path = nullptr);
  Claim claim_at(Node* node, std::size_t child, const Path* near, std::vector<Sleep>* near_sleeps);
  static Node* shallowest_claimable(Node* node);
  static std::size_t own_bytes(const Node& node);
  void forget(const Node& node);

  std::unique_ptr<Node> root_;
  bool first_claimed_ = false, first_finished_ = false;
  Node* touched_ = nullptr;  // the state the latest insertion changed
  std::size_t bytes_ = 0;
};

}  // namespace weft::scheduler
