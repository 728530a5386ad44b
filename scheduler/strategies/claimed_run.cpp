#include "scheduler/strategies/claimed_run.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "scheduler/step_loop.hpp"
#include "scheduler/strategies/explorer.hpp"

namespace weft::scheduler {
void ClaimedRun::start(SharedWakeupTree::Claim claim) {
  reversals_.clear();
  analysis_.reset();
  claim_ = std::move(claim);
  // The events the last analysed run took along this run's path stay, with their footprints.
  kept_ = 0;
  while (kept_ < std::min(intact_, claim_.forced.size()) && run_.events[kept_].actor == claim_.forced[kept_]) ++kept_;
  intact_ = kept_;
  run_.events.resize(kept_);  // the enabled actors keep their vectors' capacity for the next run's steps
  run_.length = 0;
  left_.clear();
  next_sleep_.clear();
  run_.sleeps = std::move(claim_.sleeps);  // the path's, lent for the run (and the next claim)
}

std::size_t ClaimedRun::pick(std::span<const Actor> enabled, const StepContext& context) {
  const std::size_t step = context.step;
  if (run_.enabled.size() <= step) run_.enabled.resize(step + 1);
  if (run_.events.size() <= step) run_.events.resize(step + 1);
  if (run_.sleeps.size() <= step) run_.sleeps.resize(step + 1);
  std::vector<StableActor>& names = run_.enabled[step];
  const auto name_all = [&] {
    names.resize(enabled.size());
    for (std::size_t k = 0; k < enabled.size(); ++k) names[k] = context.process->stable(enabled[k]);
  };
  const auto index_of = [&](StableActor actor) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), actor) - names.begin());
  };

  std::size_t chosen = enabled.size();
  if (step < claim_.forced.size()) {
    const StableActor forced = claim_.forced[step];
    // Before kept_, the last run took this step from the same state, reached by the same
    // choices, and named its enabled actors here (a vector lent to the tree since is empty): the
    // same actors, in the same order. So only the forced actor's name is checked, as the
    // one-thread explorer does (naming every enabled actor at every replayed step cost a fifth
    // of a worker's time).
    const bool named = step < kept_ && names.size() == enabled.size();
    if (named) chosen = index_of(forced);
    if (!named || chosen == enabled.size() || !(context.process->stable(enabled[chosen]) == forced)) {
      name_all();
      chosen = index_of(forced);
    }
    if (chosen == enabled.size())
      throw std::logic_error("explorer: the forced prefix did not replay at step " + std::to_string(step) +
                             " (does the kernel depend on something outside the simulation?)");
  } else {
    name_all();
    const Sleep& sleep = run_.sleeps[step] = std::move(next_sleep_);
    next_sleep_.clear();
    const std::size_t level = step - claim_.forced.size();
    if (level >= claim_.below.size()) {
      std::optional<StableActor> last;
      if (context.last) last = context.process->stable(*context.last);
      chosen = awake_choice(names, sleep, last);
      if (chosen == enabled.size()) throw ExecutionAbandoned{};
    } else {
      chosen = index_of(claim_.below[level]);
      if (chosen == enabled.size() || asleep(sleep, names[chosen])) throw ExecutionAbandoned{};
    }
  }
  // The same transition from the same state touches the same: a kept event's footprint stands.
  if (step >= kept_) {
    run_.events[step].actor = names[chosen];
    context.process->footprint(enabled[chosen], run_.events[step].footprint);
  }
  return chosen;
}

void ClaimedRun::after_step(Actor actor, const StepContext& context) {
  const std::size_t step = context.step;
  Event& event = run_.events[step];
  if (step >= kept_) context.process->add_after_touches(actor, event.footprint);
  run_.length = step + 1;
  if (step + 1 < claim_.forced.size()) return;
  // From the claimed branch on: what sleeps at the next state.
  for (const auto& entry : run_.sleeps[step])
    if (!dependent(entry.second, event.footprint)) next_sleep_.push_back(entry);
}

void ClaimedRun::at_end(std::span<const Actor> enabled, const StepContext& context) {
  for (const Actor actor : enabled) {
    left_.push_back({context.process->stable(actor), {}});
    context.process->footprint(actor, left_.back().footprint);
  }
}

std::vector<Reversal>& ClaimedRun::analyse() {
  run_.enabled.resize(run_.length);
  run_.events.resize(run_.length);
  run_.sleeps.resize(run_.length);
  std::move(left_.begin(), left_.end(), std::back_inserter(run_.events));
  left_.clear();
  analysis_.emplace(
      run_.events, run_.length,
      run_.enabled.empty() ? std::span<const StableActor>() : std::span<const StableActor>(run_.enabled.back()),
      analysed_, kept_);
  intact_ = run_.length;
  analysis_->reversals([&](std::size_t i) -> const Sleep& { return run_.sleeps[i]; },
                       [&](Reversal& reversal) { reversals_.push_back(std::move(reversal)); });
  return reversals_;
}

SharedWakeupTree::Prepared ClaimedRun::new_states() {
  SharedWakeupTree::Prepared states = SharedWakeupTree::prepare(claim_, run_);
  run_.sleeps.resize(claim_.forced.size());  // the rest moved into the states
  return states;
}

}  // namespace weft::scheduler
