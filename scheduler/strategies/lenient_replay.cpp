#include "scheduler/strategies/lenient_replay.hpp"

#include <algorithm>

namespace weft::scheduler {

namespace {

// The index of `actor` among the enabled actors, or enabled.size() when it is not enabled.
std::size_t position(std::span<const Actor> enabled, const Actor& actor) {
  return static_cast<std::size_t>(std::find(enabled.begin(), enabled.end(), actor) - enabled.begin());
}

}  // namespace

std::size_t LenientReplayStrategy::pick(std::span<const Actor> enabled, const StepContext& context) {
  const std::size_t none = enabled.size();
  const std::size_t last = context.last ? position(enabled, *context.last) : none;
  std::size_t chosen = none;
  if (context.step < schedule_.size()) {
    chosen = position(enabled, schedule_[context.step]);
    if (chosen == none) ++fallbacks_;
  }
  if (chosen == none) chosen = last == none ? 0 : last;
  if (last != none && chosen != last) ++preemptions_;
  return chosen;
}

}  // namespace weft::scheduler
