// The direct step loop: steps that switch from core to core without the caller's context.
//
// Through the caller's context (scheduler/step_loop.hpp's run_steps) a core's step is two switches:
// the caller resumes the core, which runs to its next visible operation and suspends back. Here the
// bookkeeping between two steps (the end of the step that ran, the checks that end the loop, the
// strategy's pick, any DMA phases picked) runs inside the visible operation of the core whose step
// just ended, on its stack or, from loop_stack_min_cores cores on, as a call made on the loop's own
// stack (StackPool::loop_stack, scheduler/fiber/other_stack.hpp: the same few kilobytes at every
// step, so they stay in cache), and back on its own stack that core switches straight to the next
// one (ContextFiber::hand_to): one switch a step, none when the strategy picks the same core again.
// SimGrid's swapped contexts chain actors in the same way without returning to maestro (Quinson et
// al., "SimGrid: a sustained effort for the versatile simulation of large scale distributed
// systems", 2016). Both loops drive the same StepLoop, so they make the same picks and the same
// records: tests/sim/direct_steps_differential_test.cpp runs every scenario's schedules through
// both.
//
// What stays with the caller: launching the cores, a core whose fiber ended (it returned, or a
// signal abandoned it: fiber_rescue.hpp switches to whoever resumed the fiber, which is the
// caller whichever core it handed on to), the loop's end and teardown. An exception thrown
// between two steps (a replay that diverges) is kept and rethrown by the caller, never thrown
// into the kernel. A core's stack has stack_headroom_bytes left at each visible
// operation, which is why only strategies that say they need little stack
// (Strategy::runs_on_core_stacks) are run this way; the explorer is not (no
// faster on it: its own bookkeeping per step outweighs a switch).

#include <utility>

#include "sim/engine/execution.hpp"

namespace weft::sim {

scheduler::LoopResult Execution::run_steps_directly(scheduler::Strategy& strategy, std::uint64_t max_steps,
                                                    scheduler::Schedule& record) {
  scheduler::StepLoop<Execution> loop(*this, strategy, max_steps, record);
  // On a machine of many cores the bookkeeping between steps runs on the pool's loop stack, the
  // same at every step.
  const bool own_stack = scheduler::changes_stacks() && cores_.size() >= loop_stack_min_cores;
  loop_stack_top_ = own_stack ? stacks_.loop_stack().top() : nullptr;
  struct Scope {
    Execution& execution;
    ~Scope() { execution.loop_ = nullptr; }
  } scope{*this};
  loop_ = &loop;
  loop_over_ = false;
  for (std::size_t core = advance(); core != no_core; core = advance()) {
    switch_.resume(*cores_[core].fiber);
    if (loop_error_) std::rethrow_exception(std::exchange(loop_error_, nullptr));
    if (loop_over_) break;
    // The fiber of the core whose step was under way ended: its step ends here.
    finish_core_step(running_core_);
  }
  return loop.result();
}

std::size_t Execution::step_after(std::size_t self) noexcept {
  if (loop_stack_top_ != nullptr) return scheduler::call_on_stack(this, self, &steps_up_to_next, loop_stack_top_);
  return steps_up_to_next(this, self);
}

std::size_t Execution::steps_up_to_next(void* execution, std::size_t self) noexcept {
  auto& on = *static_cast<Execution*>(execution);
  try {
    on.finish_core_step(self);
    return on.advance();
  } catch (...) {
    on.loop_error_ = std::current_exception();
    on.loop_over_ = true;
    return no_core;
  }
}

void Execution::finish_core_step(std::size_t global) {
  end_core_step(global);
  loop_->ran(scheduler::core_actor(static_cast<std::uint32_t>(global)));
}

std::size_t Execution::advance() {
  scheduler::Actor actor;
  while (loop_->next(actor)) {
    machine_.set_step(steps_++);
    spin_.start_step();
    if (actor.kind == scheduler::Actor::Kind::core) {
      start_core_step(actor.index);
      running_core_ = actor.index;
      return actor.index;
    }
    run_dma_phase(actor);
    loop_->ran(actor);
  }
  loop_over_ = true;
  return no_core;
}

}  // namespace weft::sim
