#pragma once
// PCT: probabilistic concurrency testing.
//
// What. A randomized strategy that runs the enabled actor of highest priority at every step.
// Priorities are distinct and random; at d - 1 random steps (the change points) the actor about
// to run is demoted below every other actor, and the pick is made again. d is the bug depth
// (`scheduler.pct_depth`).
//
// Why. A uniform random walk over the enabled actors (RandomStrategy) spreads its probability
// over every interleaving, so an ordering bug that needs one actor to stay ahead of another for
// a long stretch is found with a probability that falls exponentially with the stretch's length.
// Most concurrency bugs need only a few orderings to hold (one core runs past a flag before the
// other sets it; a DMA's write lands after a load). PCT spends its randomness on exactly those
// few decisions: which actor leads (its random priorities) and where the lead changes (its
// change points). Between change points an actor runs until it blocks or finishes, so long
// stretches of one actor are the norm, not the exception.
//
// The paper. S. Burckhardt, P. Kothari, M. Musuvathi, S. Nagarakatte, "A Randomized Scheduler
// with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010. Its guarantee: for a program of
// n threads and at most k steps, every run finds a given bug of depth d (a bug that needs d
// ordering constraints between steps to hold) with probability at least 1 / (n * k^(d-1)):
// 1/n that the right actor has the highest initial priority, and 1/k for each of the d - 1
// change points to fall on the right step. A random walk has no such bound.
//
// Priorities (as in the paper). Initial priorities are distinct values >= d; the i-th change
// point (i = 1..d-1, in the order they were drawn, not in step order) gives the actor it demotes
// priority d - i, below every initial priority. Change points are d - 1 distinct steps drawn
// uniformly from [1, steps_estimate]; step s is the pick with StepContext::step == s - 1. When
// steps_estimate < d - 1 every step is a change point. A demoted actor keeps its low priority
// (a second demotion replaces it).
//
// Actors in weft. An actor is a core or one phase of a pending DMA (`r<id>` and `w<id>` are two
// actors; scheduler/actor.hpp). Cores exist from the start, DMA phases appear while the kernel
// runs, like the threads a program creates in the paper. An actor gets its priority the first
// time it is offered as enabled: a uniformly random value among the initial priorities, distinct
// from those already given. So the initial priorities of the actors seen so far are always a
// uniformly random order, and the newcomer lands in a uniformly random place in it (above every
// demoted actor, as every initial priority is). New actors of one step are taken
// in the step loop's order (cores by id, then DMA phases by id), so the priorities depend only
// on the seed and the order in which actors appear, never on addresses or hashing. n in the
// bound counts every actor of the execution, DMA phases included.
//
// steps_estimate. k of the paper: about how many steps one execution takes. Too small, and the
// change points crowd the start of the execution; too large, and they fall past its end and are
// wasted (each costs a factor k of the bound). `scheduler.pct_steps` gives it; 0 lets the
// Simulation measure it once with one execution of the random strategy at seed 0, so every seed
// of a sharded, parallel sweep uses the same k.
//
// Invariants. All randomness comes from one Rng seeded by `seed`: the change points are drawn
// first, then one priority per new actor. The same seed and the same sequence of enabled sets
// give the same picks. Priorities are distinct at all times.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "scheduler/rng.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

class PctStrategy final : public Strategy {
 public:
  // depth >= 1; steps_estimate may be 0 (then there are no change points).
  PctStrategy(std::uint64_t seed, int depth, std::uint64_t steps_estimate);

  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;
  bool runs_on_core_stacks() const override { return true; }

  // The change points, by index i - 1: the step (1-based) at which priority d - i is given.
  const std::vector<std::uint64_t>& change_points() const { return change_points_; }
  // The actor's priority now, or nothing if it has not been seen yet. Higher runs first.
  std::optional<std::uint64_t> priority(Actor actor) const;
  int depth() const { return static_cast<int>(depth_); }

 private:
  void meet(Actor actor);
  std::size_t highest(std::span<const Actor> enabled) const;

  Rng random_;
  std::uint64_t depth_;
  std::vector<std::uint64_t> change_points_;
  std::map<Actor, std::uint64_t> priorities_;
  std::set<std::uint64_t> initial_taken_;  // initial priorities handed out, to keep them distinct
};

}  // namespace weft::scheduler
