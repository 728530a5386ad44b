#include "scheduler/explorer.hpp"

#include <algorithm>
#include <map>

#include "scheduler/step_loop.hpp"

namespace weft::scheduler {
namespace {

bool contains(const std::vector<StableActor>& actors, StableActor actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

bool asleep(const std::vector<std::pair<StableActor, Footprint>>& sleep, StableActor actor) {
  return std::any_of(sleep.begin(), sleep.end(), [&](const auto& entry) { return entry.first == actor; });
}

// The process an actor's transitions belong to: a core, or a DMA (both of its phases).
std::pair<int, std::pair<std::uint32_t, std::uint32_t>> process_of(StableActor actor) {
  if (actor.kind == Actor::Kind::core) return {0, {actor.owner, 0}};
  return {1, {actor.owner, actor.sequence}};
}

}  // namespace

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

  std::size_t chosen = enabled.size();
  if (step < forced_) {
    const auto found = std::find(names.begin(), names.end(), nodes_[step].event.actor);
    if (found == names.end())
      throw std::logic_error("explorer: the forced prefix did not replay at step " + std::to_string(step) +
                             " (does the kernel depend on something outside the simulation?)");
    chosen = static_cast<std::size_t>(found - names.begin());
  } else {
    nodes_.resize(step + 1);
    Node& node = nodes_[step];
    node = Node{};
    node.enabled = names;
    node.sleep = std::move(child_sleep_);
    child_sleep_.clear();
    std::optional<StableActor> last;
    if (context.last) last = context.process->stable(*context.last);
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (asleep(node.sleep, names[k])) continue;
      if (chosen == enabled.size() || (last && names[k] == *last)) chosen = k;
    }
    if (chosen == enabled.size()) throw ExecutionAbandoned{};
    node.backtrack = options_.reduction ? std::vector<StableActor>{names[chosen]} : names;
    node.done = {names[chosen]};
  }
  nodes_[step].event = {names[chosen], context.process->footprint(enabled[chosen])};
  return chosen;
}

void Explorer::after_step(Actor actor, const StepContext& context) {
  const std::size_t step = context.step;
  Node& node = nodes_[step];
  context.process->add_after_touches(actor, node.event.footprint);
  steps_ = step + 1;
  if (!asleep(node.explored, node.event.actor)) node.explored.emplace_back(node.event.actor, node.event.footprint);
  if (!options_.reduction || step + 1 < forced_) return;
  child_sleep_.clear();
  const auto keep = [&](const std::pair<StableActor, Footprint>& entry) {
    if (entry.first == node.event.actor || asleep(child_sleep_, entry.first)) return;
    if (!dependent(entry.second, node.event.footprint)) child_sleep_.push_back(entry);
  };
  for (const auto& entry : node.sleep) keep(entry);
  for (const auto& entry : node.explored) keep(entry);
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
  const auto before = [&](std::size_t i, std::size_t k) { return clock[k][process[i]] >= position[i]; };

  for (std::size_t j = 0; j < length; ++j) {
    for (std::size_t i : conflicts[j]) {
      const bool through_other = std::any_of(direct[j].begin(), direct[j].end(),
                                             [&](std::size_t k) { return k != i && before(i, k); });
      if (through_other) continue;
      // v: the transitions between e_i and e_j that do not happen after e_i, then e_j.
      std::vector<std::size_t> v;
      for (std::size_t k = i + 1; k < j; ++k)
        if (!before(i, k)) v.push_back(k);
      v.push_back(j);
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
        for (std::size_t k : v)
          if (k != j) tally(k);
        if (held < take.amount) reversible = false;
      }
      if (!reversible) continue;
      std::vector<StableActor> initials;
      for (std::size_t a = 0; a < v.size(); ++a) {
        const bool first = std::none_of(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(a),
                                        [&](std::size_t b) { return before(b, v[a]); });
        if (first) initials.push_back(nodes_[v[a]].event.actor);
      }
      Node& node = nodes_[i];
      const bool covered = std::any_of(initials.begin(), initials.end(),
                                       [&](StableActor actor) { return contains(node.backtrack, actor); });
      if (!covered && within_bound(i, initials.front())) node.backtrack.push_back(initials.front());
    }
  }
}

bool Explorer::choose_next() {
  for (std::size_t t = nodes_.size(); t-- > 0;) {
    Node& node = nodes_[t];
    for (const StableActor& actor : node.backtrack) {
      if (contains(node.done, actor) || asleep(node.sleep, actor)) continue;
      if (!options_.reduction && !within_bound(t, actor)) continue;
      node.done.push_back(actor);
      node.event = {actor, {}};
      nodes_.resize(t + 1);
      forced_ = t + 1;
      return true;
    }
  }
  return false;
}

}  // namespace weft::scheduler
