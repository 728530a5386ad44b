#include "scheduler/strategies/explorer.hpp"

#include <algorithm>
#include <iterator>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/class_estimate.hpp"
#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {
namespace {

bool contains(const std::vector<StableActor>& actors, StableActor actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

}  // namespace

class Explorer::Guide final : public Strategy {
 public:
  explicit Guide(Explorer& explorer) : explorer_(explorer) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override {
    return explorer_.pick(enabled, context);
  }
  void after_step(Actor actor, const StepContext& context) override { explorer_.after_step(actor, context); }
  void at_end(std::span<const Actor> enabled, const StepContext& context) override {
    explorer_.at_end(enabled, context);
  }

 private:
  Explorer& explorer_;
};

Explorer::Explorer(ExploreOptions options) : options_(options), guide_(std::make_unique<Guide>(*this)) {}
Explorer::Explorer(ExploreOptions options, ExplorerState state) : Explorer(options) {
  complete_ = state.complete;
  abandoned_ = state.abandoned;
  estimated_classes_ = state.estimated_classes;
  exhausted_ = state.exhausted;
  bound_hit_ = state.bound_hit;
  if (exhausted_ && !state.nodes.empty()) throw std::invalid_argument("explorer state: exhausted, with states left");
  for (ExplorerState::Node& node : state.nodes) {
    if (node.tree.empty()) throw std::invalid_argument("explorer state: a state with no branch to follow");
    if (!options_.reduction && !node.sleep.empty())
      throw std::invalid_argument("explorer state: a sleep set without reduction");
    events_.push_back({node.tree.front().actor, {}});
    nodes_.push_back({std::move(node), false});
  }
  forced_ = nodes_.size();
}

Explorer::~Explorer() = default;

ExplorerState Explorer::state() const {
  ExplorerState state{{}, complete_, abandoned_, estimated_classes_, exhausted_, bound_hit_};
  if (!exhausted_) state.nodes.assign(nodes_.begin(), nodes_.end());
  return state;
}

void Explorer::drop_run() {
  if (forced_ > 0 && steps_ >= forced_) {
    // The run took the subtree of the forced prefix's last branch down its new states: put it back.
    std::vector<Branch> below = std::move(child_tree_);
    for (std::size_t t = nodes_.size(); t-- > forced_;) {
      Node& node = nodes_[t];
      if (node.arrived_empty) {
        below.clear();
        continue;
      }
      node.tree.front().children = std::move(below);
      below = std::move(node.tree);
    }
    nodes_[forced_ - 1].tree.front().children = std::move(below);
  }
  nodes_.resize(forced_);
  events_.resize(forced_);
  child_tree_.clear();
  child_sleep_.clear();
  left_.clear();
  steps_ = 0;
}

Strategy& Explorer::strategy() { return *guide_; }

bool Explorer::next() {
  if (exhausted_) return false;
  if (options_.max_executions > 0 && complete_ + abandoned_ >= options_.max_executions) {
    bound_hit_ = true;
    return false;
  }
  steps_ = 0;
  left_.clear();
  return true;
}

std::size_t Explorer::pick(std::span<const Actor> enabled, const StepContext& context) {
  const std::size_t step = context.step;
  std::vector<StableActor>& names = names_;
  const auto name_all = [&] {
    names.resize(enabled.size());
    for (std::size_t k = 0; k < enabled.size(); ++k) names[k] = context.process->stable(enabled[k]);
  };
  const auto index_of = [&](StableActor actor) -> std::size_t {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), actor) - names.begin());
  };

  std::size_t chosen = enabled.size();
  if (step < forced_) {
    // A forced step is taken from the state nodes_[step] was made in, reached by the same
    // choices: the same actors are enabled, in the same order. So the forced actor's place is
    // known, and only its name is checked (naming every enabled actor at every replayed step
    // cost as much as the step).
    // The replayed states are read in order, but each one's enabled actors are a block of their
    // own: asked for ahead (as dependence.hpp's read_ahead does for touches).
    if (step + read_ahead_events < forced_) __builtin_prefetch(nodes_[step + read_ahead_events].enabled.data());
    const StableActor forced = events_[step].actor;
    const std::vector<StableActor>& known = nodes_[step].enabled;
    chosen = static_cast<std::size_t>(std::find(known.begin(), known.end(), forced) - known.begin());
    if (chosen >= enabled.size() || !(context.process->stable(enabled[chosen]) == forced)) {
      name_all();
      chosen = index_of(forced);
      if (chosen == enabled.size())
        throw std::logic_error("explorer: the forced prefix did not replay at step " + std::to_string(step) +
                               " (does the kernel depend on something outside the simulation?)");
    }
    // The same transition from the same state touches the same: the last run's footprint stands.
    if (step >= reused_) context.process->footprint(enabled[chosen], events_[step].footprint);
    return chosen;
  } else {
    name_all();
    nodes_.resize(step + 1);
    events_.resize(step + 1);
    Node& node = nodes_[step];
    node = Node{};
    node.enabled = names;
    node.sleep = std::move(child_sleep_);
    node.tree = std::move(child_tree_);
    node.runs_before = complete_;
    node.arrived_empty = node.tree.empty();
    child_sleep_.clear();
    child_tree_.clear();
    if (!options_.reduction) {
      for (const StableActor& actor : names) node.tree.push_back({actor, {}, {}});
    } else if (node.tree.empty()) {
      std::optional<StableActor> last;
      if (context.last) last = context.process->stable(*context.last);
      chosen = awake_choice(names, node.sleep, last);
      if (chosen == enabled.size()) throw ExecutionAbandoned{};
      node.tree.push_back({names[chosen], {}, {}});
    }
    chosen = index_of(node.tree.front().actor);
    if (chosen == enabled.size() || asleep(node.sleep, names[chosen])) throw ExecutionAbandoned{};
  }
  events_[step].actor = names[chosen];
  context.process->footprint(enabled[chosen], events_[step].footprint);
  return chosen;
}

void Explorer::after_step(Actor actor, const StepContext& context) {
  const std::size_t step = context.step;
  Node& node = nodes_[step];
  Event& event = events_[step];
  if (step >= reused_) context.process->add_after_touches(actor, event.footprint);
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
  for (const Actor actor : enabled) {
    left_.push_back({context.process->stable(actor), {}});
    context.process->footprint(actor, left_.back().footprint);
  }
}

void Explorer::finish(bool complete) {
  (complete ? complete_ : abandoned_) += 1;
  nodes_.resize(std::min(nodes_.size(), steps_));
  events_.resize(nodes_.size());
  if (options_.reduction) analyse_races(steps_);
  if (complete) estimated_classes_ = estimate();
  exhausted_ = !choose_next();
  // The next run replays this one's events before its branch: their footprints, whole again
  // (the analysis took its end's touches back off), are theirs.
  reused_ = exhausted_ ? 0 : forced_ - 1;
}

std::size_t Explorer::preemptions_before(std::size_t node) const {
  std::size_t count = 0;
  for (std::size_t t = 1; t < node; ++t)
    if (!(events_[t].actor == events_[t - 1].actor) && contains(nodes_[t].enabled, events_[t - 1].actor)) ++count;
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
  // The run, then the transitions still enabled when it stopped, which never ran (race_analysis.hpp).
  std::vector<Event>& run = events_;
  run.resize(length);
  std::move(left_.begin(), left_.end(), std::back_inserter(run));
  left_.clear();
  const std::span<const StableActor> last_enabled =
      length > 0 ? std::span<const StableActor>(nodes_[length - 1].enabled) : std::span<const StableActor>();
  // The events before reused_ are the last analysed run's, untouched (pick and after_step leave
  // their footprints as they were): its analysis stands for them.
  const RaceAnalysis analysis = options_.reuse_analysis ? RaceAnalysis(run, length, last_enabled, analysed_, reused_)
                                                        : RaceAnalysis(run, length, last_enabled);
  std::vector<TreeLevel>& levels = levels_;
  levels.resize(length);
  for (std::size_t t = 0; t < length; ++t) levels[t] = {&nodes_[t].tree, &run[t].footprint};
  analysis.reversals([&](std::size_t i) -> const Sleep& { return nodes_[i].sleep; },
                     [&](Reversal& reversal) {
                       const std::size_t i = reversal.at;
                       const auto may_branch = [&, i](std::size_t level, StableActor first) {
                         return within_bound(i + level, first);
                       };
                       insert(std::span<const TreeLevel>(levels).subspan(i), reversal.sequence, may_branch);
                     });
}

bool Explorer::choose_next() {
  for (std::size_t t = nodes_.size(); t-- > 0;) {
    Node& node = nodes_[t];
    node.tree.erase(node.tree.begin());
    // The branch this run followed from here is done: its actor sleeps in the later branches
    // (a state with none left is dropped, its sleep set unread).
    if (options_.reduction && !node.tree.empty() && !asleep(node.sleep, events_[t].actor))
      node.sleep.emplace_back(events_[t].actor, std::move(events_[t].footprint));
    ++node.done_branches;
    node.done_runs += complete_ - node.runs_before;
    node.runs_before = complete_;
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

double Explorer::estimate() const {
  // A state with no branch done and none waiting leaves the estimate below it as it is
  // (class_estimate.hpp): only the others are handed over, a few where the run is long.
  std::vector<EstimateLevel> path;
  for (const Node& node : nodes_)
    if (node.done_branches > 0 || node.done_runs > 0 || node.tree.size() > 1)
      path.push_back({node.done_branches, node.done_runs, node.tree.size() - 1});
  return estimate_classes(path);
}

std::size_t Explorer::frontier_size() const {
  std::size_t waiting = 0;
  for (const Node& node : nodes_) waiting += node.tree.empty() ? 0 : node.tree.size() - 1;
  return waiting;
}

namespace {

std::size_t tree_bytes(const std::vector<Branch>& tree) {
  std::size_t bytes = held_bytes(tree);
  for (const Branch& root : tree)
    visit_branches(root, [&](const Branch& branch) {
      bytes += held_bytes(branch.footprint.touches) + held_bytes(branch.children);
    });
  return bytes;
}

}  // namespace

std::size_t Explorer::memory_bytes() const {
  std::size_t bytes = held_bytes(nodes_) + held_bytes(events_) + tree_bytes(child_tree_);
  for (const Event& event : events_) bytes += held_bytes(event.footprint.touches);
  for (const Node& node : nodes_) {
    bytes += held_bytes(node.enabled) + tree_bytes(node.tree) + held_bytes(node.sleep);
    for (const auto& entry : node.sleep) bytes += held_bytes(entry.second.touches);
  }
  return bytes + analysed_.memory_bytes();
}

}  // namespace weft::scheduler
