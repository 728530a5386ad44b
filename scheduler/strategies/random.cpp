#include "scheduler/strategies/random.hpp"

namespace weft::scheduler {

std::size_t RandomStrategy::pick(std::span<const Actor> enabled, const StepContext&) {
  return enabled.size() == 1 ? 0 : static_cast<std::size_t>(random_.below(enabled.size()));
}

}  // namespace weft::scheduler
