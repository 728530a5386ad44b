#pragma once
// The random strategy: at every step, uniform over the enabled actors, from one seeded Rng
// (scheduler/rng.hpp). The seed is the whole schedule: the same seed replays the same run.

#include <cstdint>

#include "scheduler/rng.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(std::uint64_t seed) : random_(seed) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;
  bool runs_on_core_stacks() const override { return true; }

 private:
  Rng random_;
};

}  // namespace weft::scheduler
