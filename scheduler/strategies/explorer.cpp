#include "scheduler/strategies/explorer.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "scheduler/step_loop.hpp"

namespace weft::scheduler {
namespace {

bool contains(const std::vector<StableActor>& actors, StableActor actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

template <class Entries>
bool asleep(const Entries& sleep, StableActor actor) {
  return std::any_of(sleep.begin(), sleep.end(), [&](const auto& entry) { return entry.first == actor; });
}

// The process an actor's transitions belong to: a core, or a DMA (both of its phases).
std::pair<int, std::pair<std::uint32_t, std::uint32_t>> process_of(StableActor actor) {
  if (actor.kind == Actor::Kind::core) return {0, {actor.owner, 0}};
  return {1, {actor.owner, actor.sequence}};
}

bool same_process(StableActor a, StableActor b) { return process_of(a) == process_of(b); }

// Whether transition `a` may be ordered before `b` only as it is: same process, dependent, or
// `a` creates the DMA `b` belongs to.
bool related(StableActor a, const Footprint& fa, StableActor b, const Footprint& fb) {
  if (same_process(a, b) || dependent(fa, fb)) return true;
  return fa.creates && b.kind != Actor::Kind::core && b.owner == a.owner;
}

}  // namespace

// A sequence v being inserted into wakeup trees; its transitions are consumed as tree branches
// match them.
class Explorer::Sequence {
 public:
  // `before(i, k)`: transition i of the analysed run happens before transition k.
  using Before = std::function<bool(std::size_t, std::size_t)>;
  Sequence(std::vector<Step> steps, const Before& before) : steps_(std::move(steps)), before_(before) {}
  bool empty() const { return steps_.empty(); }
  const std::vector<Step>& steps() const { return steps_; }

  // Whether `actor` (about to take a transition with `footprint`) is a weak initial of the
  // sequence: the first transition of its process in the sequence has no earlier transition of
  // the sequence related to it, or its process does not occur and it is independent of all.
  // Returns the position of that transition, the size when it does not occur, or nothing.
  std::optional<std::size_t> weak_initial(StableActor actor, const Footprint& footprint) const {
    for (std::size_t a = 0; a < steps_.size(); ++a) {
      if (!same_process(steps_[a].actor, actor)) continue;
      if (!(steps_[a].actor == actor)) return std::nullopt;
      for (std::size_t b = 0; b < a; ++b)
        if (before_(steps_[b].index, steps_[a].index)) return std::nullopt;
      return a;
    }
    for (const Step& step : steps_)
      if (related(actor, footprint, step.actor, *step.footprint)) return std::nullopt;
    return steps_.size();
  }
  void consume(std::size_t position) {
    if (position < steps_.size()) steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(position));
  }
  // The rest of the sequence as a chain of branches.
  Branch chain() const {
    Branch root{steps_.front().actor, *steps_.front().footprint, {}};
    Branch* tail = &root;
    for (std::size_t a = 1; a < steps_.size(); ++a) {
      tail->children.push_back({steps_[a].actor, *steps_[a].footprint, {}});
      tail = &tail->children.back();
    }
    return root;
  }

 private:
  std::vector<Step> steps_;
  const Before& before_;
};

class Explorer::Guide final : public Strategy {
 public:
  explicit Guide(Explorer& explorer) : explorer_(explorer) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override {
    return explorer_.pick(enabled, context);
  }
  void after_step(Actor actor, const StepContext& context) override { explorer_.after_step(actor, context); }

 private:
  Explorer& explorer_;
};

Explorer::Explorer(ExploreOptions options) : options_(options), guide_(std::make_unique<Guide>(*this)) {}
Explorer::~Explorer() = default;

Strategy& Explorer::strategy() { return *guide_; }

bool Explorer::next() {
  if (exhausted_) return false;
  if (options_.max_executions > 0 && complete_ + abandoned_ >= options_.max_executions) {
    bound_hit_ = true;
    return false;
  }
  steps_ = 0;
  started_ = true;
  return true;
}

std::size_t Explorer::pick(std::span<const Actor> enabled, const StepContext& context) {
  const std::size_t step = context.step;
  std::vector<StableActor> names(enabled.size());
  for (std::size_t k = 0; k < enabled.size(); ++k) names[k] = context.process->stable(enabled[k]);
  const auto index_of = [&](StableActor actor) -> std::size_t {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), actor) - names.begin());
  };

  std::size_t chosen = enabled.size();
  if (step < forced_) {
    chosen = index_of(nodes_[step].event.actor);
    if (chosen == enabled.size())
      throw std::logic_error("explorer: the forced prefix did not replay at step " + std::to_string(step) +
                             " (does the kernel depend on something outside the simulation?)");
  } else {
    nodes_.resize(step + 1);
    Node& node = nodes_[step];
    node = Node{};
    node.enabled = names;
    node.sleep = std::move(child_sleep_);
    node.tree = std::move(child_tree_);
    child_sleep_.clear();
    child_tree_.clear();
    if (!options_.reduction) {
      for (const StableActor& actor : names) node.tree.push_back({actor, {}, {}});
    } else if (node.tree.empty()) {
      std::optional<StableActor> last;
      if (context.last) last = context.process->stable(*context.last);
      for (std::size_t k = 0; k < names.size(); ++k) {
        if (asleep(node.sleep, names[k])) continue;
        if (chosen == enabled.size() || (last && names[k] == *last)) chosen = k;
      }
      if (chosen == enabled.size()) throw ExecutionAbandoned{};
      node.tree.push_back({names[chosen], {}, {}});
    }
    chosen = index_of(node.tree.front().actor);
    if (chosen == enabled.size() || asleep(node.sleep, names[chosen])) throw ExecutionAbandoned{};
  }
  nodes_[step].event = {names[chosen], context.process->footprint(enabled[chosen])};
  return chosen;
}

void Explorer::after_step(Actor actor, const StepContext& context) {
  const std::size_t step = context.step;
  Node& node = nodes_[step];
  context.process->add_after_touches(actor, node.event.footprint);
  steps_ = step + 1;
  if (step + 1 < forced_) return;
  Branch& followed = node.tree.front();
  followed.footprint = node.event.footprint;
  child_tree_ = std::move(followed.children);
  followed.children.clear();
  child_sleep_.clear();
  if (!options_.reduction) return;
  for (const auto& entry : node.sleep)
    if (!dependent(entry.second, node.event.footprint)) child_sleep_.push_back(entry);
}

void Explorer::finish(bool complete) {
  (complete ? complete_ : abandoned_) += 1;
  nodes_.resize(std::min(nodes_.size(), steps_));
  if (options_.reduction) analyse_races(steps_);
  exhausted_ = !choose_next();
}

std::size_t Explorer::preemptions_before(std::size_t node) const {
  std::size_t count = 0;
  for (std::size_t t = 1; t < node; ++t)
    if (!(nodes_[t].event.actor == nodes_[t - 1].event.actor) && contains(nodes_[t].enabled, nodes_[t - 1].event.actor))
      ++count;
  return count;
}

bool Explorer::within_bound(std::size_t node, StableActor actor) {
  if (!options_.preemption_bound) return true;
  std::size_t count = preemptions_before(node);
  if (node > 0 && !(actor == nodes_[node - 1].event.actor) && contains(nodes_[node].enabled, nodes_[node - 1].event.actor))
    ++count;
  if (count <= static_cast<std::size_t>(*options_.preemption_bound)) return true;
  bound_hit_ = true;
  return false;
}

void Explorer::insert(std::size_t at, Sequence& sequence) {
  // Down the current run while its transitions are weak initials of the sequence.
  for (std::size_t t = at; t < nodes_.size(); ++t) {
    std::vector<Branch>& tree = nodes_[t].tree;
    bool followed = false;
    for (std::size_t b = 0; b < tree.size() && !followed; ++b) {
      const auto position = sequence.weak_initial(tree[b].actor, b == 0 ? nodes_[t].event.footprint : tree[b].footprint);
      if (!position) continue;
      sequence.consume(*position);
      if (sequence.empty()) return;
      if (b == 0) {
        followed = true;  // the current run's branch: go on at the next state
        continue;
      }
      // A pending branch: follow it down its own subtree.
      Branch* branch = &tree[b];
      while (!branch->children.empty()) {
        Branch* next = nullptr;
        for (Branch& child : branch->children) {
          const auto inner = sequence.weak_initial(child.actor, child.footprint);
          if (!inner) continue;
          sequence.consume(*inner);
          next = &child;
          break;
        }
        if (sequence.empty()) return;
        if (next == nullptr) {
          branch->children.push_back(sequence.chain());
          return;
        }
        branch = next;
      }
      return;  // a leaf: exploring it will cover the rest
    }
    if (!followed) {
      if (within_bound(t, sequence.steps().front().actor)) tree.push_back(sequence.chain());
      return;
    }
  }
  // The current run itself covers the sequence.
}

void Explorer::analyse_races(std::size_t length) {
  // Processes and the vector clocks of happens-before (program order, creation, dependence).
  std::map<std::pair<int, std::pair<std::uint32_t, std::uint32_t>>, std::size_t> process_index;
  std::vector<std::size_t> process(length), position(length);
  std::vector<std::size_t> last_of;  // per process: index + 1 of its latest event
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> creator;  // (owner, k) -> event
  std::vector<std::uint32_t> creations;                                     // per core owner
  for (std::size_t j = 0; j < length; ++j) {
    const auto [it, fresh] = process_index.try_emplace(process_of(nodes_[j].event.actor), process_index.size());
    process[j] = it->second;
    if (fresh) last_of.push_back(0);
  }
  const std::size_t processes = process_index.size();
  std::vector<std::vector<std::uint32_t>> clock(length, std::vector<std::uint32_t>(processes, 0));
  std::vector<std::vector<std::size_t>> direct(length);     // direct happens-before predecessors
  std::vector<std::vector<std::size_t>> conflicts(length);  // those that are dependent transitions
  std::vector<std::uint32_t> count(processes, 0);
  for (std::size_t j = 0; j < length; ++j) {
    const Event& event = nodes_[j].event;
    if (last_of[process[j]] > 0) direct[j].push_back(last_of[process[j]] - 1);
    if (event.actor.kind != Actor::Kind::core && last_of[process[j]] == 0) {
      const auto made = creator.find({event.actor.owner, event.actor.sequence});
      if (made != creator.end()) direct[j].push_back(made->second);
    }
    for (std::size_t i = 0; i < j; ++i)
      if (process[i] != process[j] && dependent(nodes_[i].event.footprint, event.footprint)) conflicts[j].push_back(i);
    direct[j].insert(direct[j].end(), conflicts[j].begin(), conflicts[j].end());
    for (std::size_t i : direct[j])
      for (std::size_t p = 0; p < processes; ++p) clock[j][p] = std::max(clock[j][p], clock[i][p]);
    position[j] = ++count[process[j]];
    clock[j][process[j]] = static_cast<std::uint32_t>(position[j]);
    last_of[process[j]] = j + 1;
    if (event.footprint.creates && event.actor.kind == Actor::Kind::core) {
      if (creations.size() <= event.actor.owner) creations.resize(event.actor.owner + 1, 0);
      creator[{event.actor.owner, creations[event.actor.owner]++}] = j;
    }
  }
  const Sequence::Before before = [&](std::size_t i, std::size_t k) { return clock[k][process[i]] >= position[i]; };

  // Whether an actor asleep at the state before e_i is a weak initial of v (then v is covered).
  // For each sleeping actor, the first transition after e_i not ordered after it that is related
  // to it, and the first of its own process, are found once per state: most checks are then a
  // comparison with j.
  struct Asleep {
    std::size_t first_related, first_own;
  };
  std::vector<std::vector<Asleep>> asleep_at(length);
  std::vector<bool> summarised(length, false);
  const auto sleep_covers = [&](std::size_t i, std::size_t j, const Sequence& sequence) {
    const Sleep& sleep = nodes_[i].sleep;
    if (!summarised[i]) {
      summarised[i] = true;
      for (const auto& [actor, footprint] : sleep) {
        Asleep summary{length, length};
        for (std::size_t k = i + 1; k < length && (summary.first_related == length || summary.first_own == length); ++k) {
          if (before(i, k)) continue;
          const StableActor other = nodes_[k].event.actor;
          if (summary.first_own == length && same_process(actor, other)) summary.first_own = k;
          if (summary.first_related == length && related(actor, footprint, other, nodes_[k].event.footprint))
            summary.first_related = k;
        }
        asleep_at[i].push_back(summary);
      }
    }
    const Event& last = nodes_[j].event;
    for (std::size_t s = 0; s < sleep.size(); ++s) {
      const auto& [actor, footprint] = sleep[s];
      if (asleep_at[i][s].first_own < j || same_process(actor, last.actor)) {
        if (sequence.weak_initial(actor, footprint)) return true;
      } else if (asleep_at[i][s].first_related > j && !related(actor, footprint, last.actor, last.footprint)) {
        return true;
      }
    }
    return false;
  };

  for (std::size_t j = 0; j < length; ++j) {
    for (std::size_t i : conflicts[j]) {
      const bool through_other = std::any_of(direct[j].begin(), direct[j].end(),
                                             [&](std::size_t k) { return k != i && before(i, k); });
      if (through_other) continue;
      // v: the transitions between e_i and e_j that do not happen after e_i, then e_j.
      std::vector<Step> v;
      for (std::size_t k = i + 1; k < j; ++k)
        if (!before(i, k)) v.push_back({nodes_[k].event.actor, &nodes_[k].event.footprint, k});
      v.push_back({nodes_[j].event.actor, &nodes_[j].event.footprint, j});
      // A wait can run before the signal only if its cell holds enough without it.
      bool reversible = true;
      for (const Touch& take : nodes_[j].event.footprint.touches) {
        if (take.mode != TouchMode::take) continue;
        std::int64_t held = 0;
        const auto tally = [&](std::size_t k) {
          for (const Touch& touch : nodes_[k].event.footprint.touches) {
            if (!(touch.object == take.object)) continue;
            if (touch.mode == TouchMode::add) held += touch.amount;
            if (touch.mode == TouchMode::take) held -= touch.amount;
          }
        };
        for (std::size_t k = 0; k < i; ++k) tally(k);
        for (const Step& step : v)
          if (step.index != j) tally(step.index);
        if (held < take.amount) reversible = false;
      }
      if (!reversible) continue;
      Sequence sequence(std::move(v), before);
      if (!sleep_covers(i, j, sequence)) insert(i, sequence);
    }
  }
}

bool Explorer::choose_next() {
  for (std::size_t t = nodes_.size(); t-- > 0;) {
    Node& node = nodes_[t];
    // The branch this run followed from here is done: its actor sleeps in the later branches.
    if (options_.reduction && !asleep(node.sleep, node.event.actor))
      node.sleep.emplace_back(node.event.actor, node.event.footprint);
    node.tree.erase(node.tree.begin());
    while (!node.tree.empty() && !options_.reduction && !within_bound(t, node.tree.front().actor))
      node.tree.erase(node.tree.begin());
    if (node.tree.empty()) continue;
    node.event = {node.tree.front().actor, {}};
    nodes_.resize(t + 1);
    forced_ = t + 1;
    return true;
  }
  return false;
}

}  // namespace weft::scheduler
