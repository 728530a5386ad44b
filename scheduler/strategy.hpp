#pragma once
// A strategy picks which enabled actor runs at each step. The step loop hands it the enabled
// actors in a deterministic order (cores by global id, then DMA phases by id) and the actor that
// ran last; it returns an index into that list.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "scheduler/actor.hpp"
#include "scheduler/random.hpp"
#include "scheduler/schedule.hpp"

namespace weft::scheduler {

class Process;

struct StepContext {
  std::uint64_t step = 0;
  std::optional<Actor> last;        // the actor of the previous step
  const Process* process = nullptr;  // the execution, for strategies that look at footprints
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::size_t pick(std::span<const Actor> enabled, const StepContext& context) = 0;
  // Called after the picked actor's transition ran (context.step is still its step).
  virtual void after_step(Actor, const StepContext&) {}
};

// Uniform over the enabled actors, from one seeded generator.
class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(std::uint64_t seed) : random_(seed) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;

 private:
  Random random_;
};

// Follows a recorded schedule. Past its end it lets the last actor go on if it can, else takes
// the first enabled actor, so a prefix replays and then runs without preemptions. A recorded
// actor that is not enabled at its step is a ScheduleDiverged error.
class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(Schedule schedule) : schedule_(std::move(schedule)) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;

 private:
  Schedule schedule_;
};

struct ScheduleDiverged : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace weft::scheduler
