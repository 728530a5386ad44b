#pragma once
// The step loop: the single place where an execution advances. At every step it asks the
// process for its enabled actors (which the process keeps up to date as it runs: the loop itself
// does no work per actor), asks the strategy to pick one, records the pick and runs that
// actor's transition. It ends when the process stops (finished or failed), when no actor is
// enabled (the process decides whether that is a deadlock), or after `max_steps` steps.
//
// It is a template over the process's type: given a final class whose definitions it can see
// (the engine instantiates it in its own source, sim/engine/execution.cpp), the process's calls
// are direct and inlined, so a core's switch is taken from the loop's own frame. Every frame
// between the loop and the switch would cost a mispredicted return per step (the CPU's return
// predictions belong to the other side of the switch).
//
// What a step decides lives in StepLoop, apart from how a transition is run: `run_steps` runs
// each transition from its own stack, and the engine's direct loop (sim/engine/direct_steps.cpp)
// drives the same StepLoop from whichever core's stack a step ends on, switching from core to
// core. Both make the same picks and records.

#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/footprint.hpp"
#include "scheduler/schedule.hpp"
#include "scheduler/strategy.hpp"  // Strategy, StepContext

namespace weft::scheduler {

class Process {
 public:
  virtual ~Process() = default;
  // The enabled actors in a deterministic order; valid until the next `run`.
  virtual std::span<const Actor> enabled_actors() = 0;
  // Runs one transition of `actor`.
  virtual void run(Actor actor) = 0;
  // True when no further step may be taken (every core finished, or a failure was found).
  virtual bool stopped() const = 0;

  // For the explorer: what `actor`'s next transition touches (before it runs), into `into`
  // (whatever it held is replaced; its storage is reused), and the actor's order-independent
  // name. A function of the state: the explorer asks only for the steps of a run past its replay
  // of the last run's, and keeps the footprints that run left for the replayed ones.
  // (The defaults suit processes without shared state or DMAs, such as test doubles.)
  virtual void footprint(Actor, Footprint& into) const {
    into.touches.clear();
    into.creates = false;
  }
  // What the transition of `actor` that just ran touched besides its operation (a core's
  // finishing), added after the fact.
  virtual void add_after_touches(Actor, Footprint&) const {}
  virtual StableActor stable(Actor actor) const { return {actor.kind, actor.index, 0}; }
};

enum class LoopEnd { stopped, no_enabled_actor, step_limit };

struct LoopResult {
  LoopEnd end = LoopEnd::stopped;
  std::uint64_t steps = 0;
};

// The loop's bookkeeping, apart from running a transition: what ends the loop, the pick and its
// record, and what follows a transition. `run_steps` drives it from one stack; an execution that
// switches from core to core directly (sim/engine/execution.hpp) drives it from whichever stack
// a step ends on, through the same calls, so both make the same picks.
template <class AnyProcess>
class StepLoop {
 public:
  StepLoop(AnyProcess& process, Strategy& strategy, std::uint64_t max_steps, Schedule& record)
      : process_(process), strategy_(strategy), max_steps_(max_steps), record_(record) {
    context_.process = &process;
  }

  // Sets `actor` to the next actor to run, recorded, and returns true; or returns false when the
  // loop is over (`result` says why). (Not an optional: GCC moves one through the stack in
  // pieces of different widths, and each read back stalls store forwarding.)
  [[gnu::always_inline]] bool next(Actor& actor) {
    if (process_.stopped()) return over(LoopEnd::stopped);
    const std::span<const Actor> enabled = process_.enabled_actors();
    if (enabled.empty()) return over(LoopEnd::no_enabled_actor);
    if (context_.step >= max_steps_) return over(LoopEnd::step_limit);
    actor = enabled[strategy_.pick(enabled, context_)];
    record_.push_back(actor);
    return true;
  }
  // After `actor`'s transition ran.
  [[gnu::always_inline]] void ran(Actor actor) {
    strategy_.after_step(actor, context_);
    context_.last = actor;
    ++context_.step;
  }
  LoopResult result() const { return {end_, context_.step}; }

 private:
  bool over(LoopEnd end) {
    end_ = end;
    if (end == LoopEnd::stopped) strategy_.at_end(process_.enabled_actors(), context_);
    return false;
  }

  AnyProcess& process_;
  Strategy& strategy_;
  const std::uint64_t max_steps_;
  Schedule& record_;
  StepContext context_;
  LoopEnd end_ = LoopEnd::stopped;
};

template <class AnyProcess>
LoopResult run_steps(AnyProcess& process, Strategy& strategy, std::uint64_t max_steps, Schedule& record) {
  StepLoop<AnyProcess> loop(process, strategy, max_steps, record);
  Actor actor;
  while (loop.next(actor)) {
    process.run(actor);
    loop.ran(actor);
  }
  return loop.result();
}

}  // namespace weft::scheduler
