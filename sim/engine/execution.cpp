#include "sim/engine/execution.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <new>

#include "sim/engine/core_failures.hpp"
#include "model/words.hpp"

namespace weft::sim {

using scheduler::Actor;
using scheduler::Fiber;

Execution::Execution(model::Machine& machine, scheduler::StackPool& stacks, const std::function<void(Core&)>& kernel,
                     const Params& params, scheduler::FiberBackend backend, const FiberMaker& make_fiber)
    : machine_(machine),
      kernel_(kernel),
      cores_(static_cast<std::size_t>(machine.topology().cores())),
      switch_(make_fiber ? scheduler::FiberSwitch::through_interface() : scheduler::FiberSwitch(backend)) {
  for (int global = 0; global < static_cast<int>(cores_.size()); ++global) {
    cores_[global].core = std::make_unique<Core>(*this, machine_.topology().core_of(global), params);
    std::function<void()> body = [this, global] { this->body(global); };
    cores_[global].fiber = make_fiber ? make_fiber(stacks, std::move(body)) : scheduler::make_fiber(backend, stacks, std::move(body));
    cores_[global].fiber->set_label(model::to_string(cores_[global].core->id()));
  }
  unfinished_ = static_cast<int>(cores_.size());
}

Execution::~Execution() { teardown(); }

void Execution::body(int global_core) {
  CoreSlot& slot = cores_[global_core];
  const model::CoreId id = slot.core->id();
  const auto found = [&](model::Failure failure) {
    if (tearing_down_) {
      note_teardown_problem(swallowed_teardown(id, {}));  // it turned the Teardown into its own exception
    } else if (!failure_) {
      failure_ = std::move(failure);
    }
  };
  try {
    run_program(global_core);
    if (slot.teardown_thrown) note_teardown_problem(swallowed_teardown(id, {}));
  } catch (const Teardown&) {
  } catch (const scheduler::ForcedUnwind&) {
    throw;
  } catch (const std::bad_alloc&) {
    host_ran_out_ = true;  // ends the execution as a failure would; Simulation::run reports it as the host's
    found({model::Verdict::kernel_error, model::to_string(id) + " could not allocate host memory"});
  } catch (const std::exception& error) {
    found({model::Verdict::kernel_error, model::to_string(id) + " threw: " + error.what()});
  } catch (...) {
    found({model::Verdict::kernel_error, model::to_string(id) + " threw an exception of unknown type"});
  }
}

void Execution::run_program(int global_core) {
  CoreSlot& slot = cores_[static_cast<std::size_t>(global_core)];
  const int launches = machine_.launches().count();
  for (int launch = 0; launch < launches; ++launch) {
    if (launches > 1) machine_.memory().open_scope(slot.core->id(), {});  // the launch's scratch
    {
      const Fiber::UserCode kernel_code;  // the kernel's own code, which a watchdog may interrupt
      kernel_(*slot.core);
    }
    if (launch + 1 == launches) break;
    const model::SourceLine last = slot.pending.line;  // where the launch's last operation was
    perform(global_core, ops::LaunchEnd{}, last);
    perform(global_core, ops::BarrierLeave{}, last);
  }
}

void Execution::resume_core(std::size_t global) {
  CoreSlot& slot = cores_[global];
  slot.started = true;
  switch_.resume(*slot.fiber);
  note_if_ended(global);
}

void Execution::note_if_ended(std::size_t global) {
  const CoreSlot& slot = cores_[global];
  if (!slot.fiber->finished()) return;
  --unfinished_;
  if (auto failure = abandonment(slot); failure && !failure_) failure_ = std::move(failure);
}

std::optional<model::Failure> Execution::abandonment(const CoreSlot& slot) const {
  const model::CoreId id = slot.core->id();
  const model::SourceLine last = slot.pending.line;
  switch (slot.fiber->end()) {
    case Fiber::End::stack_overflow: return stack_overflow_failure(id, slot.fiber->stack_bytes(), last);
    case Fiber::End::interrupted: return watchdog_failure(id, watchdog_seconds_, last);
    case Fiber::End::faulted: return fault_failure(id, slot.fiber->fault(), last);
    default: return std::nullopt;
  }
}

void Execution::launch() {
  for (std::size_t global = 0; global < cores_.size() && !failure_; ++global) resume_core(global);
  machine_.released_cells().clear();
  for (std::size_t global = 0; global < cores_.size(); ++global) refresh_core(global);
}

void Execution::teardown() {
  if (tearing_down_) return;
  tearing_down_ = true;
  for (CoreSlot& slot : cores_) {
    // A started kernel is resumed once, so that Teardown unwinds its stack. One that is still
    // unfinished after that caught it and went on to another visible operation (or does one in
    // a destructor while unwinding), where it waits for good: it is abandoned. An unstarted
    // fiber never runs its kernel (Fiber's destructor).
    if (!slot.started || slot.fiber->finished()) continue;
    slot.fiber->resume();
    if (const auto failure = abandonment(slot)) note_teardown_problem("while unwinding, " + failure->message);
    slot.fiber->abandon();
  }
}

void Execution::note_teardown_problem(std::string problem) {
  if (!teardown_problem_.empty()) teardown_problem_ += "\n";
  teardown_problem_ += problem;
}

void Execution::throw_teardown(CoreSlot& slot) {
  slot.teardown_thrown = true;
  throw Teardown{};
}

void Execution::park(CoreSlot& slot, const ops::PendingOp& op) {
  if (std::uncaught_exceptions() == 0) note_teardown_problem(swallowed_teardown(slot.core->id(), op.line));
  slot.fiber->suspend();
  std::abort();  // unreachable: teardown never resumes a fiber twice, and abandons this one
}

void Execution::fail_exhausted(int global_core, const ops::PendingOp& op) {
  const CoreSlot& slot = cores_[static_cast<std::size_t>(global_core)];
  fail(global_core, stack_exhausted_failure(slot.core->id(), slot.fiber->stack_bytes(), stack_headroom_bytes, op.line));
}

void Execution::fail(int global_core, model::Failure failure) {
  CoreSlot& slot = cores_[static_cast<std::size_t>(global_core)];
  if (Fiber::current() != slot.fiber.get()) called_elsewhere(global_core, "failed: " + failure.message, {});
  if (tearing_down_) park(slot, slot.pending);
  if (!failure_) failure_ = std::move(failure);
  slot.pending.operation = nullptr;  // stands at no operation now: never enabled again
  stop_here(static_cast<std::size_t>(global_core));
  throw_teardown(slot);
}

void Execution::dmas_started(int global) {
  std::vector<int>& started = machine_.started_dmas();
  for (std::size_t k = 0; k < started.size(); ++k) {
    const int dma_id = started[k];
    if (machine_.spec().dma_execution != model::DmaExecution::eager) {
      in_flight_.push_back(dma_id);  // ids grow with every start: both lists stay sorted
      enabled_.push_back({scheduler::Actor::Kind::dma_read, static_cast<std::uint32_t>(dma_id)});
      continue;
    }
    // Both phases run inside the start, on the starter's step: the read, then every chunk of
    // the write in order.
    const ops::DmaPhase dma{dma_id};
    while (machine_.dmas()[dma_id].next != model::DmaPhase::done) {
      const model::DmaPhase phase = machine_.dmas()[dma_id].next;
      model::Failure failure;
      if (!dma.apply(machine_, failure)) {
        started.clear();
        fail(global, std::move(failure));
      }
      if (trace_) emit(dma.event(machine_, phase));
    }
  }
  started.clear();
}

std::optional<std::pair<int, int>> Execution::dma_needed_by(int dma_id) const {
  // on_wait: a phase runs only for a core blocked on the cell it signals; a read phase is also
  // needed by a waiter of its write phase's cell, since the write cannot run before it. A write
  // phase that has landed some of its chunks is still pending, and needed the same way.
  const model::Dma& dma = machine_.dmas()[dma_id];
  const auto waits_on = [&](int semaphore, model::CoreId who) {
    const int global = machine_.topology().global(who);
    const CoreSlot& slot = cores_[global];
    if (semaphore < 0 || slot.fiber->finished() || !blocked(slot)) return false;
    const auto waits = ops::waits(slot.pending, machine_, global);
    return waits && std::any_of(waits->begin(), waits->end(),
                                [&](const ops::Condition& condition) { return condition.filled_by(semaphore, global); });
  };
  if (waits_on(dma.recv_semaphore, dma.destination))
    return std::pair{dma.recv_semaphore, machine_.topology().global(dma.destination)};
  if (dma.next == model::DmaPhase::read && waits_on(dma.send_semaphore, dma.starter))
    return std::pair{dma.send_semaphore, machine_.topology().global(dma.starter)};
  return std::nullopt;
}

void Execution::refresh_core(std::size_t global) {
  CoreSlot& slot = cores_[global];
  const bool finished = slot.fiber->finished();
  const bool waits = !finished && !ops::enabled(slot.pending, machine_, static_cast<int>(global));
  const bool spins = !finished && !waits && spinning(slot);
  if (spins != slot.polling) {
    slot.polling = spins;
    if (spins) {
      polling_.push_back(static_cast<int>(global));
    } else {
      polling_.erase(std::find(polling_.begin(), polling_.end(), static_cast<int>(global)));
      slot.poll_released = !finished;  // released by this step's change
      released_pollers_.push_back(static_cast<int>(global));
    }
  }
  const bool enabled = !finished && !waits && !spins;
  if (enabled == slot.enabled) return;
  slot.enabled = enabled;
  const Actor actor = scheduler::core_actor(static_cast<std::uint32_t>(global));
  const auto cores_end = enabled_.begin() + static_cast<std::ptrdiff_t>(enabled_cores_);
  const auto at = std::lower_bound(enabled_.begin(), cores_end, actor, [](Actor a, Actor b) { return a.index < b.index; });
  if (enabled) {
    enabled_.insert(at, actor);
    ++enabled_cores_;
  } else {
    enabled_.erase(at);
    --enabled_cores_;
  }
}

void Execution::refresh_after(Actor actor) {
  if (actor.kind == Actor::Kind::core) refresh_core(actor.index);
  std::vector<int>& released = machine_.released_cells();
  for (int global : released) refresh_core(static_cast<std::size_t>(global));
  released.clear();
  if (!polling_.empty()) release_pollers();
}

void Execution::release_pollers() {
  for (std::size_t k = 0; k < polling_.size();) {
    const int global = polling_[k];
    refresh_core(static_cast<std::size_t>(global));  // a released core leaves polling_
    if (k < polling_.size() && polling_[k] == global) ++k;
  }
}

std::optional<PollTarget> Execution::poll_target(const CoreSlot& slot) const {
  const model::CoreId id = slot.core->id();
  return ops::polls(slot.pending, {id, machine_.topology().global(id), slot.pending.line});
}

std::span<const Actor> Execution::enabled_actors() {
  if (machine_.spec().dma_execution == model::DmaExecution::on_wait) rebuild_on_wait();
  return enabled_;
}

void Execution::rebuild_on_wait() {
  enabled_.resize(enabled_cores_);  // the cores are up to date
  const auto phase_of = [&](int id) {
    const bool read = machine_.dmas()[id].next == model::DmaPhase::read;
    return Actor{read ? Actor::Kind::dma_read : Actor::Kind::dma_write, static_cast<std::uint32_t>(id)};
  };
  if (machine_.spec().compat != model::CompatProfile::jax) {
    for (int id : in_flight_)
      if (dma_needed_by(id)) enabled_.push_back(phase_of(id));
    return;
  }
  // The reference's on_wait: each blocked cell runs only the newest DMA it needs.
  std::vector<std::pair<int, int>>& served = served_cells_;
  served.clear();
  for (auto id = in_flight_.rbegin(); id != in_flight_.rend(); ++id) {
    const auto cell = dma_needed_by(*id);
    if (!cell || std::find(served.begin(), served.end(), *cell) != served.end()) continue;
    served.push_back(*cell);
    enabled_.push_back(phase_of(*id));
  }
  std::reverse(enabled_.begin() + static_cast<std::ptrdiff_t>(enabled_cores_), enabled_.end());
}

void Execution::run_core(Actor actor) {
  start_core_step(actor.index);
  switch_.resume(*cores_[actor.index].fiber);
  end_core_step(actor.index);
}

void Execution::end_core_step(std::size_t global) {
  note_if_ended(global);
  const Actor actor = scheduler::core_actor(static_cast<std::uint32_t>(global));
  if (cores_[global].fiber->end() == Fiber::End::returned && trace_) {
    TraceEvent event;
    event.kind = TraceEvent::Kind::finish;
    event.actor = actor;
    emit(event);
  }
  refresh_after(actor);
}

void Execution::run_dma_phase(Actor actor) {
  const int id = static_cast<int>(actor.index);
  const ops::DmaPhase dma{id};
  const model::DmaPhase phase = machine_.dmas()[id].next;
  model::Failure failure;
  const bool ran = dma.apply(machine_, failure);
  if (!ran) {
    if (!failure_) failure_ = std::move(failure);
  } else if (trace_) {
    emit(dma.event(machine_, phase));
  }
  const auto listed = std::lower_bound(enabled_.begin() + static_cast<std::ptrdiff_t>(enabled_cores_), enabled_.end(), actor,
                                       [](Actor a, Actor b) { return a.index < b.index; });
  // A phase that failed ran too, and ended the execution: it is not left enabled, as if it could
  // still run (the explorer analyses what a run left enabled as never run).
  if (!ran || machine_.dmas()[id].next == model::DmaPhase::done) {
    in_flight_.erase(std::lower_bound(in_flight_.begin(), in_flight_.end(), id));
    if (listed != enabled_.end() && listed->index == actor.index) enabled_.erase(listed);
  } else if (listed != enabled_.end() && listed->index == actor.index) {
    listed->kind = Actor::Kind::dma_write;
  }
  refresh_after(actor);
}

void Execution::run(Actor actor) {
  machine_.set_step(steps_++);
  released_pollers_.clear();
  if (actor.kind == Actor::Kind::core) {
    run_core(actor);
  } else {
    run_dma_phase(actor);
  }
}

scheduler::LoopResult Execution::run_steps(scheduler::Strategy& strategy, std::uint64_t max_steps,
                                           scheduler::Schedule& record) {
  if (switch_.direct() && strategy.runs_on_core_stacks()) return run_steps_directly(strategy, max_steps, record);
  return scheduler::run_steps(*this, strategy, max_steps, record);
}

void Execution::footprint(Actor actor, scheduler::Footprint& into) const {
  into.touches.clear();
  into.creates = false;
  if (actor.kind == Actor::Kind::core) {
    const CoreSlot& slot = cores_[actor.index];
    ops::footprint(slot.pending, machine_, {slot.core->id(), static_cast<int>(actor.index), slot.pending.line}, rules_,
                   into);
    if (slot.poll_released)
      into.touches.push_back(ops::poll_release_touch(static_cast<int>(actor.index), scheduler::TouchMode::take));
    return;
  }
  ops::DmaPhase{static_cast<int>(actor.index)}.footprint(machine_, rules_, into);
}

scheduler::StableActor Execution::stable(Actor actor) const {
  if (actor.kind == Actor::Kind::core) return {actor.kind, actor.index, 0};
  const model::Dma& dma = machine_.dmas()[actor.index];
  return {actor.kind, static_cast<std::uint32_t>(machine_.topology().global(dma.starter)),
          static_cast<std::uint32_t>(dma.sequence)};
}

std::vector<Execution::Standing> Execution::standing() const {
  std::vector<Standing> cores;
  for (std::size_t global = 0; global < cores_.size(); ++global) {
    const CoreSlot& slot = cores_[global];
    if (slot.fiber->finished()) continue;
    const ops::OpSite site{slot.core->id(), static_cast<int>(global), slot.pending.line};
    cores.push_back({site, ops::waits(slot.pending, machine_, site.global),
                     slot.polling ? slot.poll.describe(machine_) : std::string()});
  }
  return cores;
}

std::vector<model::FailureSite> Execution::blocked_sites() const {
  std::vector<model::FailureSite> sites;
  const std::uint64_t step = steps_ == 0 ? 0 : steps_ - 1;
  for (const Standing& core : standing()) {
    std::string what = "stopped here";
    std::vector<model::BlockedWait> blocked;
    if (const auto& waits = core.waits) {
      what.clear();
      for (const ops::Condition& condition : *waits) {
        const int id = condition.device_barrier ? -1 : machine_.semaphores().id(condition.semaphore);
        const std::int64_t holds = condition.holds(machine_);
        what += std::string(what.empty() ? "" : ", or ") +
                (condition.device_barrier ? "waits at the device barrier"
                                          : "waits on " + machine_.semaphores().describe(condition.semaphore)) +
                ": needs " + std::to_string(condition.needs) + ", holds " + std::to_string(holds);
        if (!condition.device_barrier) blocked.push_back({id, condition.needs, holds});
      }
    } else if (!core.polls.empty()) {
      what = "polls, and nothing it reads has changed since its last read: " + core.polls;
    }
    sites.push_back({{model::Accessor::Kind::core, core.site.global}, step, core.site.line, what, std::move(blocked)});
  }
  return sites;
}

std::string Execution::describe_blocked() const {
  std::string text;
  for (const Standing& core : standing()) {
    text += "\n  " + model::to_string(core.site.core) + " at " + model::to_string(core.site.line);
    if (const auto& waits = core.waits) {
      bool first = true;
      for (const ops::Condition& condition : *waits) {
        text += first ? ": " : "; or ";
        first = false;
        const std::int64_t holds = condition.holds(machine_);
        if (condition.device_barrier) {
          text += "waits at the device barrier until all " + std::to_string(condition.needs) + " cores of device " +
                  std::to_string(core.site.core.device) + " arrive; " + std::to_string(holds) + " have";
        } else {
          const model::CoreId cell = machine_.topology().core_of(condition.core);
          text += "waits on " + machine_.semaphores().describe(condition.semaphore) + ", " +
                  model::words::cell(cell.device, cell.core) + ", needs " + std::to_string(condition.needs) +
                  ", holds " + std::to_string(holds);
        }
      }
    } else if (!core.polls.empty()) {
      text += ": polls, re-reading " + core.polls + "; nothing it reads has changed since its last read, and nothing "
              "left to run can change it (the spin reduction, docs/semantics.md §6)";
    }
  }
  if (!in_flight_.empty()) text += "\npending DMAs:";
  for (int id : in_flight_) text += "\n  " + model::describe(machine_.dmas()[id]);
  return text;
}

}  // namespace weft::sim
