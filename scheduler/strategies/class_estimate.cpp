#include "scheduler/strategies/class_estimate.hpp"

namespace weft::scheduler {

double estimate_classes(std::span<const EstimateLevel> path) {
  double below = 1;  // the run that just ended
  for (auto level = path.rbegin(); level != path.rend(); ++level) {
    const double done = static_cast<double>(level->done_runs);
    const double mean = (done + below) / static_cast<double>(level->done_branches + 1);
    below = done + below + static_cast<double>(level->waiting) * mean;
  }
  return below;
}

}  // namespace weft::scheduler
