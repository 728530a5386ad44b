#include "scheduler/step_loop.hpp"

namespace weft::scheduler {

LoopResult run_steps(Process& process, Strategy& strategy, std::uint64_t max_steps, Schedule& record) {
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
  return {LoopEnd::stopped, context.step};
}

}  // namespace weft::scheduler
