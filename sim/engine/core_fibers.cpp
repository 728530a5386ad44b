// The core fibers' lifecycle: each core's kernel on its fiber (once per launch of the program),
// its end (returned, or abandoned by a signal: overflow, watchdog, fault), a failure that ends
// the execution, and the teardown that unwinds every unfinished kernel (execution.hpp states
// the contract: Teardown, stack_headroom_bytes).

#include <cstdlib>
#include <exception>
#include <new>

#include "sim/engine/core_failures.hpp"
#include "sim/api/scenario.hpp"
#include "sim/engine/execution.hpp"

namespace weft::sim {

using scheduler::Fiber;

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
  } catch (const NotModelled& error) {
    if (!not_modelled_) not_modelled_ = model::to_string(id) + ": its kernel met " + error.what();
    found({model::Verdict::kernel_error, *not_modelled_});  // ends the execution; Simulation::run throws
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
    ops::LaunchEnd end;
    perform(global_core, end, last);
    ops::BarrierLeave leave;
    perform(global_core, leave, last);
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
    case Fiber::End::stack_overflow:
      return stack_overflow_failure(id, slot.fiber->stack_bytes(), last);
    case Fiber::End::interrupted:
      return watchdog_failure(id, watchdog_seconds_, last);
    case Fiber::End::faulted:
      return fault_failure(id, slot.fiber->fault(), last);
    default:
      return std::nullopt;
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

}  // namespace weft::sim
