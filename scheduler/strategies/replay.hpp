#pragma once
// The replay strategy: follows a recorded schedule. Past its end it lets the last actor go on if
// it can, else takes the first enabled actor, so a prefix replays and then runs without
// preemptions. A recorded actor that is not enabled at its step is a ScheduleDiverged error.
// (The lenient replay of lenient_replay.hpp never throws; the shrinker uses it.)

#include <stdexcept>

#include "scheduler/schedule.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(Schedule schedule) : schedule_(std::move(schedule)) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;
  bool runs_on_core_stacks() const override { return true; }

 private:
  Schedule schedule_;
};

struct ScheduleDiverged : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace weft::scheduler
