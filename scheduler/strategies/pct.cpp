#include "scheduler/strategies/pct.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace weft::scheduler {

PctStrategy::PctStrategy(std::uint64_t seed, int depth, std::uint64_t steps_estimate)
    : random_(seed), depth_(static_cast<std::uint64_t>(depth)) {
  assert(depth >= 1);
  const std::uint64_t wanted = depth_ - 1;
  if (steps_estimate <= wanted) {
    // Fewer steps than change points: every step is one, in a random order of priorities.
    for (std::uint64_t step = 1; step <= steps_estimate; ++step) change_points_.push_back(step);
    for (std::size_t i = change_points_.size(); i > 1; --i)
      std::swap(change_points_[i - 1], change_points_[static_cast<std::size_t>(random_.below(i))]);
    return;
  }
  while (change_points_.size() < wanted) {
    const std::uint64_t step = 1 + random_.below(steps_estimate);
    if (std::find(change_points_.begin(), change_points_.end(), step) == change_points_.end())
      change_points_.push_back(step);
  }
}

std::optional<std::uint64_t> PctStrategy::priority(Actor actor) const {
  const auto found = priorities_.find(actor);
  if (found == priorities_.end()) return std::nullopt;
  return found->second;
}

void PctStrategy::meet(Actor actor) {
  if (priorities_.contains(actor)) return;
  // Initial priorities are drawn from [d, 2^64 - 1), distinct: a uniformly random place among
  // the actors already seen.
  const std::uint64_t range = std::numeric_limits<std::uint64_t>::max() - depth_;
  std::uint64_t value = depth_ + random_.below(range);
  while (initial_taken_.contains(value)) value = depth_ + random_.below(range);
  initial_taken_.insert(value);
  priorities_.emplace(actor, value);
}

std::size_t PctStrategy::highest(std::span<const Actor> enabled) const {
  std::size_t best = 0;
  for (std::size_t i = 1; i < enabled.size(); ++i)
    if (priorities_.at(enabled[i]) > priorities_.at(enabled[best])) best = i;
  return best;
}

std::size_t PctStrategy::pick(std::span<const Actor> enabled, const StepContext& context) {
  assert(!enabled.empty());
  for (const Actor& actor : enabled) meet(actor);
  std::size_t chosen = highest(enabled);
  const std::uint64_t step = context.step + 1;
  const auto point = std::find(change_points_.begin(), change_points_.end(), step);
  if (point != change_points_.end()) {
    const auto i = static_cast<std::uint64_t>(point - change_points_.begin()) + 1;
    priorities_[enabled[chosen]] = depth_ - i;
    chosen = highest(enabled);
  }
  return chosen;
}

}  // namespace weft::scheduler
