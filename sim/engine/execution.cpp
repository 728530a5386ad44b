#include "sim/engine/execution.hpp"

#include <algorithm>

namespace weft::sim {

using scheduler::Actor;
using scheduler::Fiber;

Execution::Execution(model::Machine& machine, scheduler::StackPool& stacks, const std::function<void(Core&)>& kernel,
                     const Params& params, scheduler::FiberBackend backend, const FiberMaker& make_fiber)
    : CoreServices(machine, performers()),
      kernel_(kernel),
      cores_(static_cast<std::size_t>(machine.topology().cores())),
      dma_policy_(machine.spec()),
      enabled_(cores_.size()),
      spin_(cores_.size()),
      switch_(make_fiber ? scheduler::FiberSwitch::through_interface() : scheduler::FiberSwitch(backend)),
      stacks_(stacks) {
  for (int global = 0; global < static_cast<int>(cores_.size()); ++global) {
    cores_[global].core = std::make_unique<Core>(*this, machine_.topology().core_of(global), params);
    std::function<void()> body = [this, global] { this->body(global); };
    cores_[global].fiber =
        make_fiber ? make_fiber(stacks, std::move(body)) : scheduler::make_fiber(backend, stacks, std::move(body));
    cores_[global].fiber->set_label(model::to_string(cores_[global].core->id()));
  }
  unfinished_ = static_cast<int>(cores_.size());
}

Execution::~Execution() { teardown(); }

void Execution::dmas_started(int global) {
  std::vector<int>& started = machine_.started_dmas();
  for (std::size_t k = 0; k < started.size(); ++k) {
    const int dma_id = started[k];
    if (!dma_policy_.eager()) {
      dma_policy_.started(dma_id);
      enabled_.add_phase(dma_id);
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
    if (semaphore < 0 || slot.fiber->finished() || !blocked(static_cast<std::size_t>(global))) return false;
    const auto waits = ops::waits(slot.pending, machine_, global);
    return waits && std::any_of(waits->begin(), waits->end(), [&](const ops::Condition& condition) {
             return condition.filled_by(semaphore, global);
           });
  };
  if (waits_on(dma.recv_semaphore, dma.destination))
    return std::pair{dma.recv_semaphore, machine_.topology().global(dma.destination)};
  if (dma.next == model::DmaPhase::read && waits_on(dma.send_semaphore, dma.starter))
    return std::pair{dma.send_semaphore, machine_.topology().global(dma.starter)};
  return std::nullopt;
}

void Execution::refresh_core(std::size_t global) {
  const CoreSlot& slot = cores_[global];
  const bool finished = slot.fiber->finished();
  const bool waits = !finished && !ops::enabled(slot.pending, machine_, static_cast<int>(global));
  const bool spins = !finished && !waits && spinning(global);
  spin_.set_polling(global, spins, finished);
  enabled_.set_core(static_cast<std::uint32_t>(global), !finished && !waits && !spins);
}

void Execution::refresh_after(Actor actor) {
  if (actor.kind == Actor::Kind::core) refresh_core(actor.index);
  std::vector<int>& released = machine_.released_cells();
  for (int global : released) refresh_core(static_cast<std::size_t>(global));
  released.clear();
  if (!spin_.polling().empty()) release_pollers();
}

void Execution::release_pollers() {
  const std::vector<int>& polling = spin_.polling();
  for (std::size_t k = 0; k < polling.size();) {
    const int global = polling[k];
    refresh_core(static_cast<std::size_t>(global));  // a released core leaves the list
    if (k < polling.size() && polling[k] == global) ++k;
  }
}

void Execution::enable_needed_phases() {
  enabled_.drop_phases();
  dma_policy_.on_wait_phases([&](int id) { return dma_needed_by(id); },
                             [&](int id) {
                               const bool read = machine_.dmas()[id].next == model::DmaPhase::read;
                               enabled_.add_phase(id, read ? Actor::Kind::dma_read : Actor::Kind::dma_write);
                             });
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
  // A phase that failed ran too, and ended the execution: it is not left enabled, as if it could
  // still run (the explorer analyses what a run left enabled as never run).
  const bool over = !ran || machine_.dmas()[id].next == model::DmaPhase::done;
  if (over) dma_policy_.finished(id);
  enabled_.phase_ran(id, over);
  refresh_after(actor);
}

void Execution::run(Actor actor) {
  machine_.set_step(steps_++);
  spin_.start_step();
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
    if (spin_.released(actor.index))
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

std::vector<StandingCore> Execution::standing() const {
  std::vector<StandingCore> cores;
  for (std::size_t global = 0; global < cores_.size(); ++global) {
    const CoreSlot& slot = cores_[global];
    if (slot.fiber->finished()) continue;
    const ops::OpSite site{slot.core->id(), static_cast<int>(global), slot.pending.line};
    cores.push_back({site, ops::waits(slot.pending, machine_, site.global),
                     spin_.polling(global) ? spin_.describe(global, machine_) : std::string()});
  }
  return cores;
}

std::vector<model::FailureSite> Execution::blocked_sites() const {
  return failure_sites(standing(), machine_, steps_ == 0 ? 0 : steps_ - 1);
}

std::string Execution::describe_blocked() const {
  return sim::describe_blocked(standing(), dma_policy_.in_flight(), machine_);
}

}  // namespace weft::sim
