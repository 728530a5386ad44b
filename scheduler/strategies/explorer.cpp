#include "scheduler/strategies/explorer.hpp"

#include <algorithm>
#include <iterator>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/happens_before.hpp"
#include "scheduler/strategies/reversibility.hpp"

namespace weft::scheduler {
namespace {

bool contains(const std::vector<StableActor>& actors, StableActor actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

template <class Entries>
bool asleep(const Entries& sleep, StableActor actor) {
  return std::any_of(sleep.begin(), sleep.end(), [&](const auto& entry) { return entry.first == actor; });
}

}  // namespace

class Explorer::Guide final : public Strategy {
 public:
  explicit Guide(Explorer& explorer) : explorer_(explorer) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override {
    return explorer_.pick(enabled, context);
  }
  void after_step(Actor actor, const StepContext& context) override { explorer_.after_step(actor, context); }
  void at_end(std::span<const Actor> enabled, const StepContext& context) override { explorer_.at_end(enabled, context); }

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
  left_.clear();
  return true;
}

std::size_t Explorer::pick(std::span<const Actor> enabled, const StepContext& context) {
  const std::size_t step = context.step;
  std::vector<StableActor>& names = names_;
  names.resize(enabled.size());
  for (std::size_t k = 0; k < enabled.size(); ++k) names[k] = context.process->stable(enabled[k]);
  const auto index_of = [&](StableActor actor) -> std::size_t {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), actor) - names.begin());
  };

  std::size_t chosen = enabled.size();
  if (step < forced_) {
    chosen = index_of(events_[step].actor);
    if (chosen == enabled.size())
      throw std::logic_error("explorer: the forced prefix did not replay at step " + std::to_string(step) +
                             " (does the kernel depend on something outside the simulation?)");
  } else {
    nodes_.resize(step + 1);
    events_.resize(step + 1);
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
  events_[step] = {names[chosen], context.process->footprint(enabled[chosen])};
  return chosen;
}

void Explorer::after_step(Actor actor, const StepContext& context) {
  const std::size_t step = context.step;
  Node& node = nodes_[step];
  Event& event = events_[step];
  context.process->add_after_touches(actor, event.footprint);
  steps_ = step + 1;
  if (step + 1 < forced_) return;
  // The followed branch's own footprint is never read (a tree's front is matched by what the
  // run took from it: TreeLevel::taken), so it is not copied in.
  Branch& followed = node.tree.front();
  child_tree_ = std::move(followed.children);
  followed.children.clear();
  child_sleep_.clear();
  if (!options_.reduction) return;
  for (const auto& entry : node.sleep)
    if (!dependent(entry.second, event.footprint)) child_sleep_.push_back(entry);
}

void Explorer::at_end(std::span<const Actor> enabled, const StepContext& context) {
  for (const Actor actor : enabled) left_.push_back({context.process->stable(actor), context.process->footprint(actor)});
}

void Explorer::finish(bool complete) {
  (complete ? complete_ : abandoned_) += 1;
  nodes_.resize(std::min(nodes_.size(), steps_));
  events_.resize(nodes_.size());
  if (options_.reduction) analyse_races(steps_);
  exhausted_ = !choose_next();
}

std::size_t Explorer::preemptions_before(std::size_t node) const {
  std::size_t count = 0;
  for (std::size_t t = 1; t < node; ++t)
    if (!(events_[t].actor == events_[t - 1].actor) && contains(nodes_[t].enabled, events_[t - 1].actor))
      ++count;
  return count;
}

bool Explorer::within_bound(std::size_t node, StableActor actor) {
  if (!options_.preemption_bound) return true;
  std::size_t count = preemptions_before(node);
  if (node > 0 && !(actor == events_[node - 1].actor) && contains(nodes_[node].enabled, events_[node - 1].actor))
    ++count;
  if (count <= static_cast<std::size_t>(*options_.preemption_bound)) return true;
  bound_hit_ = true;
  return false;
}

void Explorer::analyse_races(std::size_t length) {
  // The run, then the transitions still enabled when it stopped, which never ran (DMA phases
  // pending when the last core finished): they race with the events they are dependent with
  // (a core's exit, above all) like any other, and reversing such a race runs them first.
  //
  // The run's last transition ended it (the last core's exit, or an access that raced: a run
  // stops at its first race), and so disabled every transition left that was enabled before it:
  // each such pair is dependent, and its reversal runs the left one first. Footprints alone
  // miss the pairs that touch nothing in common (a core's next load and a racing DMA write of
  // another buffer); without them the explorer never tried what the left core would have done
  // instead (exit before a DMA lands: dma_in_flight). A touch of a pseudo-object, the run's
  // end, written by the last transition and read by each left one, makes them conflict.
  //
  // The run is analysed in place: the left transitions are moved behind it, and the end's touch
  // is taken off its last transition again afterwards (its footprint goes into sleep sets).
  std::vector<Event>& run = events_;
  run.resize(length);
  std::move(left_.begin(), left_.end(), std::back_inserter(run));
  left_.clear();
  if (length > 0) {
    const Touch end_of_run{{run_end_object}, TouchMode::write};
    run[length - 1].footprint.touches.push_back(end_of_run);
    for (std::size_t k = length; k < run.size(); ++k)
      if (contains(nodes_[length - 1].enabled, run[k].actor))
        run[k].footprint.touches.push_back({end_of_run.object, TouchMode::read});
  }
  struct Restore {
    std::vector<Event>& run;
    std::size_t length;
    ~Restore() {
      run.resize(length);
      if (length > 0) run[length - 1].footprint.touches.pop_back();
    }
  } restore{run, length};
  const HappensBefore order(run);
  const auto before = [&](std::size_t i, std::size_t k) { return order.before(i, k); };
  std::vector<TreeLevel> levels(length);
  for (std::size_t t = 0; t < length; ++t) levels[t] = {&nodes_[t].tree, &run[t].footprint};

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
      const std::size_t none = run.size();  // past every event, the left ones included
      for (const auto& [actor, footprint] : sleep) {
        Asleep summary{none, none};
        for (std::size_t k = i + 1; k < length && (summary.first_related == none || summary.first_own == none); ++k) {
          if (before(i, k)) continue;
          const StableActor other = run[k].actor;
          if (summary.first_own == none && same_process(actor, other)) summary.first_own = k;
          if (summary.first_related == none && related(actor, footprint, other, run[k].footprint))
            summary.first_related = k;
        }
        asleep_at[i].push_back(summary);
      }
    }
    const Event& last = run[j];
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

  for (std::size_t j = 0; j < run.size(); ++j) {
    for (std::size_t i : order.races(j)) {
      if (i >= length) break;  // two transitions left at the end: neither ran, nothing to reverse
      // v: the transitions between e_i and e_j that do not happen after e_i, then e_j.
      std::vector<Sequence::Step> v;
      for (std::size_t k = i + 1; k < std::min(j, length); ++k)
        if (!before(i, k)) v.push_back({run[k].actor, &run[k].footprint, k});
      v.push_back({run[j].actor, &run[j].footprint, j});
      Sequence sequence(std::move(v), order);
      if (!reversible(run, i, sequence, j)) continue;
      if (sleep_covers(i, j, sequence)) continue;
      const auto may_branch = [&, i](std::size_t level, StableActor first) { return within_bound(i + level, first); };
      insert(std::span<const TreeLevel>(levels).subspan(i), sequence, may_branch);
    }
  }
}

bool Explorer::choose_next() {
  for (std::size_t t = nodes_.size(); t-- > 0;) {
    Node& node = nodes_[t];
    // The branch this run followed from here is done: its actor sleeps in the later branches.
    if (options_.reduction && !asleep(node.sleep, events_[t].actor)) node.sleep.emplace_back(events_[t].actor, events_[t].footprint);
    node.tree.erase(node.tree.begin());
    while (!node.tree.empty() && !options_.reduction && !within_bound(t, node.tree.front().actor))
      node.tree.erase(node.tree.begin());
    if (node.tree.empty()) continue;
    events_[t] = {node.tree.front().actor, {}};
    nodes_.resize(t + 1);
    events_.resize(t + 1);
    forced_ = t + 1;
    return true;
  }
  return false;
}

std::size_t Explorer::frontier_size() const {
  std::size_t waiting = 0;
  for (const Node& node : nodes_) waiting += node.tree.empty() ? 0 : node.tree.size() - 1;
  return waiting;
}

namespace {

std::size_t footprint_bytes(const Footprint& footprint) { return footprint.touches.capacity() * sizeof(Touch); }

std::size_t tree_bytes(const std::vector<Branch>& tree) {
  std::size_t bytes = tree.capacity() * sizeof(Branch);
  for (const Branch& branch : tree) bytes += footprint_bytes(branch.footprint) + tree_bytes(branch.children);
  return bytes;
}

}  // namespace

std::size_t Explorer::memory_bytes() const {
  std::size_t bytes = nodes_.capacity() * sizeof(Node) + events_.capacity() * sizeof(Event) + tree_bytes(child_tree_);
  for (const Event& event : events_) bytes += footprint_bytes(event.footprint);
  for (const Node& node : nodes_) {
    bytes += node.enabled.capacity() * sizeof(StableActor) + tree_bytes(node.tree);
    bytes += node.sleep.capacity() * sizeof(Sleep::value_type);
    for (const auto& entry : node.sleep) bytes += footprint_bytes(entry.second);
  }
  return bytes;
}

}  // namespace weft::scheduler
