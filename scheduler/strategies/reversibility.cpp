#include "scheduler/strategies/reversibility.hpp"

namespace weft::scheduler {

bool reversible(std::span<const Event> run, std::size_t i, const Sequence& v, std::size_t j) {
  for (const Touch& take : run[j].footprint.touches) {
    if (take.mode != TouchMode::take) continue;
    std::int64_t held = 0;
    const auto tally = [&](std::size_t k) {
      for (const Touch& touch : run[k].footprint.touches) {
        if (!(touch.object == take.object)) continue;
        if (touch.mode == TouchMode::add) held += touch.amount;
        if (touch.mode == TouchMode::take) held -= touch.amount;
      }
    };
    for (std::size_t k = 0; k < i; ++k) tally(k);
    for (const Sequence::Step& step : v.steps())
      if (step.index != j) tally(step.index);
    if (held < take.amount) return false;
  }
  return true;
}

}  // namespace weft::scheduler
