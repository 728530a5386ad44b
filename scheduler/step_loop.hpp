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

  // For the explorer: what `actor`'s next transition touches (before it runs) and the actor's
  // order-independent name.
  // (The defaults suit processes without shared state or DMAs, such as test doubles.)
  virtual Footprint footprint(Actor) const { return {}; }
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

template <class AnyProcess>
LoopResult run_steps(AnyProcess& process, Strategy& strategy, std::uint64_t max_steps, Schedule& record) {
  StepContext context;
  context.process = &process;
  while (!process.stopped()) {
    const std::span<const Actor> enabled = process.enabled_actors();
    if (enabled.empty()) return {LoopEnd::no_enabled_actor, context.step};
    if (context.step >= max_steps) return {LoopEnd::step_limit, context.step};
    const Actor actor = enabled[strategy.pick(enabled, context)];
    record.push_back(actor);
    process.run(actor);
    strategy.after_step(actor, context);
    context.last = actor;
    ++context.step;
  }
  strategy.at_end(process.enabled_actors(), context);
  return {LoopEnd::stopped, context.step};
}

}  // namespace weft::scheduler
