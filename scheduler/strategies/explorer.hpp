#pragma once
// The explorer: every interleaving of an execution, up to equivalence (docs/semantics.md §7), by
// stateless dynamic partial-order reduction.
//
// What. Two interleavings are equivalent (the same Mazurkiewicz trace) when one becomes the
// other by swapping adjacent independent transitions; equivalent interleavings reach the same
// state, so one of each class is enough to find every deadlock, race and wrong result. The
// explorer re-runs the execution from the start each time, forcing a prefix of choices (the
// step loop and the fibers are the same as for `run` and `sweep`: the explorer is a strategy),
// then lets it run on, and analyses the finished run for the choices worth trying next.
//
// The algorithm is Optimal-DPOR with wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, "Optimal
// Dynamic Partial Order Reduction", POPL 2014, Algorithm 2), with races computed on each
// complete run. For every race e ≲ e' (dependent transitions of different actors, e' ordered
// after e by nothing but e itself; happens_before.hpp) the explorer builds v: every transition
// of the run after e that does not happen after it (notdep(e), those after e' included), then
// e'. Unless an actor asleep at the state before e is a weak initial of v (v's exploration is
// already covered by a sibling), v is inserted into that state's wakeup tree (wakeup_tree.hpp).
// The current run is the leftmost branch of every tree on its path. Runs then follow the tree's
// branches in order before choosing freely, and sleep sets (an actor already explored from a
// state sleeps in later siblings' subtrees until a transition dependent with it runs) keep each
// class from being explored twice. So every run is a different trace and, unlike with plain
// source sets, in theory no run is cut short by its sleep set. Should one be (a run whose every
// enabled actor sleeps), it is abandoned and counted, never reported as a finding: the count is
// part of the exploration's result (docs/decisions/explorer-abandoned-runs.md).
// On kernels whose cores share nothing there is exactly one run.
//
// Independence comes from footprints (scheduler/footprint.hpp): buffer rectangles read or
// written, semaphore cells (signals add and commute, a wait takes, a read observes), buffer
// existence, and the count of running cores that the last finishing core takes to zero while
// DMA phases observe it. Happens-before is program order (a DMA's phases after its start) plus
// dependence in run order.
//
// Blocking waits: a race whose reversal would find a wait's cell short is dropped
// (reversibility.hpp), so every sequence put into a wakeup tree can run.
//
// A run's end. The transitions still enabled when a run stopped, which never ran, are analysed
// as if they came after it, and the run's last transition counts as dependent with each of them
// (race_analysis.hpp, which both explorers use). That dependence is the explorer's own, unknown
// to the sleep sets, so under race detection a few runs can be abandoned.
//
// Several threads exploring one tree: shared_wakeup_tree.hpp.
//
// Actors are named by StableActor (a DMA by its starter and sequence), since DMA ids follow the
// order in which DMAs happened to start. Bounds: a maximum number of runs, and a preemption
// bound (choices that would exceed it are not added, and the report says the space was cut).

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "scheduler/actor.hpp"
#include "scheduler/footprint.hpp"
#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/race_analysis.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

struct ExploreOptions {
  std::uint64_t max_executions = 0;     // runs, complete or abandoned; 0: no bound
  std::optional<int> preemption_bound;  // none: no bound
  bool reduction = true;                // false: every interleaving, for checking the reduction
  bool reuse_analysis = true;           // false: each run's races analysed whole, for checking the reuse
};

// Thrown out of a run the explorer abandons: every enabled actor is asleep.
struct ExecutionAbandoned {};

// The explorer between two runs, whole: what a checkpoint keeps (sim/engine/explore_checkpoint.hpp).
// An explorer made from it goes on exactly as the one it was taken from would have: the same
// runs, in the same order, with the same counts.
struct ExplorerState {
  struct Node {
    std::vector<StableActor> enabled;
    std::vector<Branch> tree;         // not empty; tree[0] is the branch the next run follows from here
    Sleep sleep;                      // asleep here: on arrival, plus the branches finished
    std::uint64_t done_branches = 0;  // branches from here explored to their end
    std::uint64_t done_runs = 0;      // complete runs under them
    std::uint64_t runs_before = 0;    // complete runs when tree[0], the current branch, began
    friend bool operator==(const Node&, const Node&) = default;
  };
  std::vector<Node> nodes;  // the states of the next run's forced prefix (none once exhausted)
  std::uint64_t complete = 0, abandoned = 0;
  double estimated_classes = 0;
  bool exhausted = false, bound_hit = false;
  friend bool operator==(const ExplorerState&, const ExplorerState&) = default;
};

class Explorer {
 public:
  explicit Explorer(ExploreOptions options);
  // Goes on from `state` (taken from an explorer with the same options); throws
  // std::invalid_argument when it is not one an explorer can be in between runs.
  Explorer(ExploreOptions options, ExplorerState state);
  Explorer(const Explorer&) = delete;
  Explorer& operator=(const Explorer&) = delete;
  ~Explorer();

  // Whether another run is due; its strategy is `strategy()`.
  bool next();
  Strategy& strategy();
  // After each run: whether it ran to its end (false: abandoned).
  void finish(bool complete);
  // Forgets the run in hand, stopped midway (by its strategy's caller, before finish): the
  // explorer is as it was before next(), and its next run is that one again.
  void drop_run();
  // Between runs (before the first, after finish or drop_run): the whole of it.
  ExplorerState state() const;

  std::uint64_t complete_runs() const { return complete_; }
  std::uint64_t abandoned_runs() const { return abandoned_; }
  bool exhausted() const { return exhausted_ && !bound_hit_; }
  bool bound_hit() const { return bound_hit_; }

  // What the explorer keeps between runs, for a progress line and a memory bound: the states of
  // the current run (its depth), the branches waiting in their wakeup trees (the frontier: each
  // is at least one run still due), and the bytes of all of it (nodes, wakeup trees, sleep sets
  // and their footprints, and the last run's race analysis kept for the next; a walk over them,
  // so call it once per run, not per step).
  std::size_t depth() const { return nodes_.size(); }
  std::size_t frontier_size() const;
  std::size_t memory_bytes() const;
  // The interleaving classes (complete runs) of the whole space, estimated after each complete
  // run from the branches known on its path (class_estimate.hpp); 0 before the first. Exact
  // once exhausted; read by nothing the explorer decides.
  double estimated_classes() const { return estimated_classes_; }

 private:
  class Guide;
  struct Node : ExplorerState::Node {
    // Made by the run in hand with no branch waiting: its tree is that run's own choice, which
    // drop_run forgets (the other states beyond the forced prefix hold the subtree it followed).
    bool arrived_empty = false;
  };

  std::size_t pick(std::span<const Actor> enabled, const StepContext& context);
  void after_step(Actor actor, const StepContext& context);
  void at_end(std::span<const Actor> enabled, const StepContext& context);
  void analyse_races(std::size_t length);
  std::size_t preemptions_before(std::size_t node) const;
  bool within_bound(std::size_t node, StableActor actor);
  bool choose_next();
  double estimate() const;

  ExploreOptions options_;
  std::vector<Node> nodes_;         // nodes_[t]: the state before step t of the current run
  std::vector<Event> events_;       // events_[t]: the transition the current run takes from it
  std::vector<Event> left_;         // enabled when the current run stopped, never run
  std::vector<StableActor> names_;  // the enabled actors at a step (kept for its capacity)
  std::vector<TreeLevel> levels_;   // the analysis' view of the run's trees (kept for its capacity)
  AnalysisMemory analysed_;         // the last run's analysis, for the next one's over their shared events
  std::size_t forced_ = 0;          // steps of the next run that follow nodes_' events
  std::size_t reused_ = 0;          // of those, the first ones whose footprints a complete earlier
                                    // replay of them left in events_ (none after a restore)
  std::size_t steps_ = 0;           // steps taken in the current run
  Sleep child_sleep_;
  std::vector<Branch> child_tree_;  // the subtree the next new node starts from
  std::unique_ptr<Guide> guide_;
  std::uint64_t complete_ = 0, abandoned_ = 0;
  double estimated_classes_ = 0;
  bool exhausted_ = false, bound_hit_ = false;
};

}  // namespace weft::scheduler
