#include "scheduler/strategies/replay.hpp"

#include <algorithm>

namespace weft::scheduler {

std::size_t ReplayStrategy::pick(std::span<const Actor> enabled, const StepContext& context) {
  if (context.step < schedule_.size()) {
    const Actor wanted = schedule_[context.step];
    const auto found = std::find(enabled.begin(), enabled.end(), wanted);
    if (found == enabled.end())
      throw ScheduleDiverged("the schedule does not fit this execution: at step " + std::to_string(context.step) +
                             " it picks " + to_string(wanted) + ", which is not enabled");
    return static_cast<std::size_t>(found - enabled.begin());
  }
  if (context.last) {
    const auto found = std::find(enabled.begin(), enabled.end(), *context.last);
    if (found != enabled.end()) return static_cast<std::size_t>(found - enabled.begin());
  }
  return 0;
}

}  // namespace weft::scheduler
