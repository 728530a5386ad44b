#pragma once
// Wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, "Optimal Dynamic Partial Order Reduction",
// POPL 2014, section 6): at each state of the explored run, an ordered tree of the transition
// sequences still to be explored from it. Its first branch is the one the current run follows.
//
// Inserting a sequence v (the reversal of a race: the transitions between its two events that
// do not happen after the first, then the second) walks down from the state: a branch whose
// first transition is a *weak initial* of v (an initial of v, or independent of all of v) is
// followed, consuming that transition from v. Reaching a leaf, the end of the current run, or
// an empty v means v is covered; otherwise what is left of v becomes a new branch, unless the
// explorer's bound forbids it there.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/happens_before.hpp"

namespace weft::scheduler {

// A branch and the branches after it. A chain of branches is as long as the rest of a reversal,
// up to a run's length: destroying, copying and comparing take no recursion.
struct Branch {
  StableActor actor;
  Footprint footprint;
  std::vector<Branch> children;

  Branch() = default;
  Branch(StableActor first, Footprint touched, std::vector<Branch> after = {})
      : actor(first), footprint(std::move(touched)), children(std::move(after)) {}
  Branch(const Branch& other);
  Branch(Branch&&) noexcept = default;
  Branch& operator=(const Branch& other);
  Branch& operator=(Branch&&) noexcept;
  ~Branch();
  friend bool operator==(const Branch& a, const Branch& b);
};

// Calls visit(branch) for `root` and every branch below it, depth first, each before its children
// (a leaf, as most waiting branches are, without allocating).
template <class Visit>
void visit_branches(const Branch& root, Visit visit) {
  if (root.children.empty()) {
    visit(root);
    return;
  }
  std::vector<const Branch*> next{&root};
  while (!next.empty()) {
    const Branch* at = next.back();
    next.pop_back();
    visit(*at);
    for (std::size_t c = at->children.size(); c-- > 0;) next.push_back(&at->children[c]);
  }
}

// A sequence v being inserted; its transitions are consumed as tree branches match them. Each
// step is a transition of the analysed run (its index there, for happens-before).
class Sequence {
 public:
  struct Step {
    StableActor actor;
    const Footprint* footprint;
    std::size_t index;
  };
  Sequence(std::vector<Step> steps, const HappensBefore& order) : steps_(std::move(steps)), order_(&order) {}
  bool empty() const { return first_ == steps_.size(); }
  // What is left of the sequence.
  std::span<const Step> steps() const { return std::span<const Step>(steps_).subspan(first_); }

  // Whether `actor` (about to take a transition with `footprint`) is a weak initial: the first
  // transition of its process in the sequence has no earlier transition of the sequence
  // happening before it, or its process does not occur and it is related to none. Returns the
  // position of that transition, the size when it does not occur, or nothing.
  std::optional<std::size_t> weak_initial(StableActor actor, const Footprint& footprint) const;
  // Removes the transition at `position` (nothing when it is the size). The first goes in
  // constant time: a walk down a wakeup tree mostly consumes the sequence from its front.
  void consume(std::size_t position);
  // The rest of the sequence as a chain of branches (not empty).
  Branch chain() const;

 private:
  std::vector<Step> steps_;  // steps_[first_ ..]: what is left
  std::size_t first_ = 0;
  const HappensBefore* order_;
};

// One state along the current run: its wakeup tree, and the footprint of the transition the
// run took from it (tree->front()'s, which the branch itself does not hold yet).
struct TreeLevel {
  std::vector<Branch>* tree;
  const Footprint* taken;
};

enum class Inserted { covered, added, refused };

// Inserts what is left of `v` into a waiting branch whose first transition it matched: follows
// the children it matches; a leaf covers it; where no child fits, the rest becomes a new child.
Inserted insert_below(Branch& branch, Sequence& v);

// Inserts `v` at levels[0], walking down the current run's states. `may_branch(level, actor)`
// says whether a new branch starting with `actor` may be added at that level (a preemption
// bound); when it may not, the sequence is refused.
Inserted insert(std::span<const TreeLevel> levels, Sequence& v,
                const std::function<bool(std::size_t level, StableActor first)>& may_branch);

}  // namespace weft::scheduler
