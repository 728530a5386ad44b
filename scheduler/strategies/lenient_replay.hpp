#pragma once
// A lenient replay follows a schedule as far as the execution lets it, and never throws. It is
// the strategy the schedule shrinker (sim/engine/shrinker.hpp) runs its candidates under: a
// candidate is an edited schedule that usually no longer fits the execution exactly, and
// leniency turns it into *some* real execution close to what the edit meant.
//
// At step i it wants schedule[i]:
//   - wanted actor enabled          -> take it;
//   - wanted actor not enabled      -> take the previous step's actor if it is enabled, else
//                                      the first enabled actor (a fallback);
//   - past the end of the schedule  -> the previous actor goes on if it can, else the first
//                                      enabled actor.
// Fallbacks and the tail never switch away from an actor that could go on, so they add no
// preemptions of their own.
//
// A *preemption* is a step whose actor differs from the previous step's actor while that
// previous actor was still enabled. Counting them needs the enabled sets, which only the step
// loop sees, so the strategy counts them for the picks it makes: after the run,
// `preemptions()` is the preemption count of the schedule the step loop recorded (the actual
// picks, not the schedule this strategy was given).

#include <cstddef>
#include <span>
#include <utility>

#include "scheduler/schedule.hpp"
#include "scheduler/strategy.hpp"

namespace weft::scheduler {

class LenientReplayStrategy final : public Strategy {
 public:
  explicit LenientReplayStrategy(Schedule schedule) : schedule_(std::move(schedule)) {}
  std::size_t pick(std::span<const Actor> enabled, const StepContext& context) override;
  bool runs_on_core_stacks() const override { return true; }

  // Preemptions among the picks made so far.
  std::size_t preemptions() const { return preemptions_; }
  // Steps within the schedule where its actor was not enabled and another was taken.
  std::size_t fallbacks() const { return fallbacks_; }

 private:
  Schedule schedule_;
  std::size_t preemptions_ = 0;
  std::size_t fallbacks_ = 0;
};

}  // namespace weft::scheduler
