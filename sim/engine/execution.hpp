#pragma once
// One execution of a kernel on every core: the process the step loop drives. Each core runs on
// its own fiber and stops at each visible operation (Core calls `yield`); an actor is a core or
// the next phase of an in-flight DMA; `enabled_actors` applies the rules of docs/semantics.md §6 and
// the DMA execution mode of §4.
//
// It is made of units, each with its own contract and test:
//   enabled_set.hpp     the enabled actors, kept up to date as the execution runs: a core's
//                       status changes only when it runs or when a cell it may wait on is
//                       signalled (the machine lists those cells)
//   dma_policy.hpp      when a started DMA's phases run (eager, async, on_wait, the jax quirk)
//   spin_reduction.hpp  which polling cores are blocked, and which a step released
//   blocked_cores.hpp   where the unfinished cores stand, in the one description reports use
//   core_fibers.cpp     the core fibers' lifecycle: launch, end, failure, teardown
//   direct_steps.cpp    the step loop that switches from core to core directly
// This file ties them together: perform (an operation of the table), the steps of cores and DMA
// phases, and the explorer's questions (footprint, stable names).

#include <exception>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "model/machine.hpp"
#include "scheduler/fiber/fiber_switch.hpp"
#include "scheduler/fiber/other_stack.hpp"
#include "scheduler/step_loop.hpp"
#include "sim/api/core.hpp"
#include "sim/api/core_services.hpp"
#include "sim/engine/blocked_cores.hpp"
#include "sim/engine/dma_policy.hpp"
#include "sim/engine/enabled_set.hpp"
#include "sim/engine/spin_reduction.hpp"
#include "sim/events/trace_event.hpp"
#include "sim/ops/dma_phase.hpp"
#include "sim/ops/table.hpp"

namespace weft::sim {

// Thrown at a core's suspension point when the execution is torn down early, so the kernel's
// stack unwinds. A kernel that catches everything must rethrow it; one that does not is
// reported (kernel_error) and its fiber abandoned, so a teardown always ends.
struct Teardown {};

// At each visible operation a core must have this much fiber stack left, so that weft's own code
// after it never runs into the guard page; less is reported as a stack overflow.
inline constexpr std::size_t stack_headroom_bytes = 32 * 1024;

// From this many cores on, the direct step loop's bookkeeping runs on a stack of its own
// (direct_steps.cpp): below it the cores' stacks stay in the first-level cache anyway, and the
// 4-core operation mix (`step_ns`) measured slower with it (docs/performance/scale.md).
inline constexpr std::size_t loop_stack_min_cores = 32;

class Execution final : public CoreServices, public scheduler::Process {
 public:
  // Each core runs on a fiber of `backend` (scheduler/fiber/fiber_backend.hpp), on a stack from
  // `stacks`, or on one `make_fiber` makes when it is given (a binding's fibers: its switches go
  // through the Fiber interface).
  using FiberMaker = std::function<std::unique_ptr<scheduler::Fiber>(scheduler::StackPool&, std::function<void()>)>;
  Execution(model::Machine& machine, scheduler::StackPool& stacks, const std::function<void(Core&)>& kernel,
            const Params& params, scheduler::FiberBackend backend = scheduler::FiberBackend::context,
            const FiberMaker& make_fiber = {});
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;
  ~Execution() override;

  // Runs every core up to its first visible operation (local code only, no choices).
  void launch();
  // Unwinds every unfinished core (Teardown at its suspension point); a core that will not
  // unwind is abandoned and noted in teardown_problem(). Also done by the destructor.
  void teardown();
  // What went wrong while tearing down: a kernel that swallowed the Teardown (empty if none).
  const std::string& teardown_problem() const { return teardown_problem_; }
  // The watchdog's budget, for the message of an interrupted core.
  void set_watchdog_seconds(double seconds) { watchdog_seconds_ = seconds; }
  // The spin reduction (poll_window.hpp), on by default.
  void set_spin_reduction(bool on) { spin_.set_on(on); }

  // Runs the step loop (scheduler/step_loop.hpp) over this execution, instantiated where the
  // transitions are defined so that they inline into it. On the default fiber backend, with a
  // strategy that may run on a core's stack, the loop switches from core to core directly
  // (sim/engine/direct_steps.cpp); otherwise every step goes through the caller's context.
  scheduler::LoopResult run_steps(scheduler::Strategy& strategy, std::uint64_t max_steps, scheduler::Schedule& record);

  // Inline into the step loop: only the on_wait policy recomputes the DMA phases at every step.
  std::span<const scheduler::Actor> enabled_actors() override {
    if (dma_policy_.rebuilds()) enable_needed_phases();
    return enabled_.actors();
  }
  [[gnu::always_inline]] inline void run(scheduler::Actor actor) override;  // inlined into run_steps
  bool stopped() const override { return failure_.has_value() || unfinished_ == 0; }
  void footprint(scheduler::Actor actor, scheduler::Footprint& into) const override;
  void add_after_touches(scheduler::Actor actor, scheduler::Footprint& footprint) const override {
    if (actor.kind == scheduler::Actor::Kind::core && cores_[actor.index].fiber->finished())
      footprint.touches.push_back(ops::core_finished_touch());
    for (int global : spin_.released_now())
      footprint.touches.push_back(ops::poll_release_touch(global, scheduler::TouchMode::add));
  }
  scheduler::StableActor stable(scheduler::Actor actor) const override;
  void set_footprint_rules(ops::FootprintRules rules) { rules_ = rules; }

  const std::optional<model::Failure>& failure() const { return failure_; }
  // A core's code, or weft's on its behalf, could not allocate (std::bad_alloc): the host ran
  // out, which is no verdict of the kernel's; the execution ended there, and its caller reports
  // the allocation failure (Simulation::run throws std::bad_alloc).
  bool host_ran_out() const { return host_ran_out_; }
  // A core's kernel met what weft does not model (NotModelled, sim/api/scenario.hpp): weft's
  // gap, no verdict of the kernel's; the execution ended there, and Simulation::run throws
  // NotModelled with this text (the core, then what it met).
  const std::optional<std::string>& not_modelled() const { return not_modelled_; }
  // What blocks the execution when no actor is enabled: each blocked core and pending DMA.
  std::string describe_blocked() const;
  // The same as failure sites: each unfinished core where it stands.
  std::vector<model::FailureSite> blocked_sites() const;

  // Which launch this is (the Simulation counts its executions from 1); handles carry it.
  void set_launch_number(std::uint64_t launch) { set_launch(launch); }

  // --- for Core (sim/api/core_services.hpp) ---
  [[noreturn]] void fail(int global_core, model::Failure failure) override;

  // Performs a visible operation of core `global`, an entry of the operation table
  // (sim/ops/table.hpp): stops there until the scheduler picks the core, applies the entry's
  // effect (a failure ends the execution), notes its reads for the spin reduction, emits its
  // trace event, and applies the DMA policy to the DMAs the machine started. The entry's results
  // are written into it. Inline, like the default backend's switch: no frame between the
  // kernel API's call (perform_entry) and the switch.
  template <class Entry>
  [[gnu::always_inline]] void perform(int global, Entry& entry, model::SourceLine line) {
    const scheduler::Fiber::RuntimeSection runtime;  // weft's own code: no watchdog cuts it
    if (runtime.fiber() != cores_[static_cast<std::size_t>(global)].fiber.get()) [[unlikely]]
      called_elsewhere(global, Entry::verb, line);
    yield(global, ops::pending(entry, line));
    const ops::OpSite site{cores_[static_cast<std::size_t>(global)].core->id(), global, line};
    model::Failure failure;
    if (!ops::apply(entry, machine_, site, failure)) fail(global, std::move(failure));
    note_poll(global, entry, site);
    if (trace_) emit_operation(entry.event(machine_, site), global, line);
    if constexpr (ops::StartsDmas<Entry>)
      if (!machine_.started_dmas().empty()) dmas_started(global);
  }
  // Tracing: off unless a sink is attached.
  void set_trace(TraceSink* sink) { trace_ = sink; }

 private:
  // The performer of each kind of the operation table, for CoreServices (core_services.cpp).
  static const Performer* performers();
  // Each unfinished core where it stands, and what it waits for if it is blocked.
  std::vector<StandingCore> standing() const;
  // Core `global_core`'s kernel, once per launch of the program; between two launches the core
  // ends the first (ops/launch_end.hpp) and waits at its device's barrier.
  void run_program(int global_core);

  // A cache line each, which also makes finding a core's slot a shift (every step does, several
  // times).
  struct alignas(64) CoreSlot {
    std::unique_ptr<Core> core;
    std::unique_ptr<scheduler::Fiber> fiber;
    ops::PendingOp pending;
    bool started = false;
    bool teardown_thrown = false;  // a Teardown was thrown into the kernel
  };
  // Stops the calling core at a visible operation until the scheduler picks it.
  // (The operation is recorded first and the rare paths read the record: an `op` whose address
  // escaped into them would be built on the stack in narrow stores and copied in wide loads,
  // each stalling store forwarding, at every step.)
  [[gnu::always_inline]] void yield(int global_core, const ops::PendingOp& op) {
    CoreSlot& slot = cores_[static_cast<std::size_t>(global_core)];
    slot.pending = op;
    if (tearing_down_) park(slot, slot.pending);
    if (slot.fiber->stack_left() < stack_headroom_bytes) fail_exhausted(global_core, slot.pending);
    stop_here(static_cast<std::size_t>(global_core));
#if !defined(NDEBUG) || defined(WEFT_SANITIZE_ADDRESS)
    slot.pending.operation = nullptr;  // the entry's record is about to go: nothing may read it now
#endif
    if (tearing_down_) throw_teardown(slot);
  }
  // Ends core `global`'s step where it stands: the direct loop goes on from here, else the
  // caller of the loop is switched back to.
  [[gnu::always_inline]] void stop_here(std::size_t global) {
    if (loop_ != nullptr) {
      hand_on(global);
    } else {
      switch_.suspend(*cores_[global].fiber);
    }
  }
  // --- the direct step loop (direct_steps.cpp) ---
  // Ends the step of core `self`, which stands at a visible operation (or failed), and goes on
  // to the next core's step: `self` itself without a switch, another core by one switch, or
  // back to the caller of run_steps when the loop is over. Inline, like `yield`.
  [[gnu::always_inline]] void hand_on(std::size_t self) {
    const std::size_t next = step_after(self);
    if (next == self) {
      switch_.go_on(*cores_[self].fiber);
    } else if (next == no_core) {
      switch_.suspend(*cores_[self].fiber);
    } else {
      switch_.hand_to(*cores_[self].fiber, *cores_[next].fiber);
    }
  }
  static constexpr std::size_t no_core = ~std::size_t{0};
  scheduler::LoopResult run_steps_directly(scheduler::Strategy& strategy, std::uint64_t max_steps,
                                           scheduler::Schedule& record);
  // On core `self`'s stack: ends its step and runs steps up to the next core's, which it returns
  // (no_core when the loop is over, or an exception was kept for the caller of run_steps).
  std::size_t step_after(std::size_t self) noexcept;
  // step_after's work, made on the loop's own stack when there is one (scheduler/fiber/other_stack.hpp):
  // its frames stay in cache rather than landing, cold, on each core's stack in turn.
  static std::size_t steps_up_to_next(void* execution, std::size_t self) noexcept;
  // Runs the loop's steps up to the next core's step, which it starts and returns (no_core when
  // the loop is over).
  std::size_t advance();
  // Before core `global`'s fiber is resumed for a step.
  void start_core_step(std::size_t global) {
    spin_.start_core_step(global);
    cores_[global].started = true;
  }
  // After core `global`'s fiber stopped: whether it ended, its trace event and what it enabled.
  void end_core_step(std::size_t global);
  // The same, and the direct loop's record of the step.
  void finish_core_step(std::size_t global);
  // The fiber of core `global` ended (returned or was abandoned): counted, and its failure kept.
  void note_if_ended(std::size_t global);

  // Registers the DMAs core `global`'s operation started (Machine::started_dmas): their phases
  // become actors, or in eager mode run now.
  void dmas_started(int global);
  // `event` of core `global`'s operation at `line`, stamped and sent to the trace sink.
  void emit_operation(TraceEvent event, int global, model::SourceLine line) {
    event.actor = scheduler::core_actor(static_cast<std::uint32_t>(global));
    event.line = line;
    emit(event);
  }
  // Stamps the event with the running step.
  void emit(TraceEvent event) {
    event.step = steps_ == 0 ? 0 : steps_ - 1;
    trace_->on_event(event);
  }
  bool blocked(std::size_t global) const {
    return !ops::enabled(cores_[global].pending, machine_, static_cast<int>(global)) || spinning(global);
  }
  // Whether core `global` stands at a read that would repeat its last iteration unchanged
  // (spin_reduction.hpp).
  [[gnu::always_inline]] bool spinning(std::size_t global) const {
    if (!spin_.may_spin(global)) return false;
    const CoreSlot& slot = cores_[global];
    bool spins = false;
    ops::visit_polls(slot.pending, {slot.core->id(), static_cast<int>(global), slot.pending.line},
                     [&](const ops::PollTarget& target) { spins = spin_.spinning(global, target, machine_); });
    return spins;
  }
  // The spin reduction's bookkeeping after an operation: its read, or its effect. (Off, nothing:
  // the read's target is not even built.)
  template <class Entry>
  void note_poll(int global, const Entry& entry, const ops::OpSite& site) {
    if (!spin_.on()) return;
    if constexpr (ops::Polling<Entry>) spin_.note_read(static_cast<std::size_t>(global), entry.polls(site), machine_);
    else spin_.note_effect(static_cast<std::size_t>(global));
  }
  // on_wait: the DMA phases enabled now are those a blocked core needs (DmaPolicy::on_wait_phases).
  void enable_needed_phases();
  // After a step: the polling cores whose reads it changed are released.
  void release_pollers();
  // Brings core `global`'s status in enabled_ and spin_ up to date.
  void refresh_core(std::size_t global);
  // After a step: the cores it may have enabled or disabled.
  void refresh_after(scheduler::Actor actor);
  // Resumes a core up to its first visible operation (launch).
  void resume_core(std::size_t global);
  // run's two halves: a core's step (inlined into the loop) and a DMA phase's.
  [[gnu::always_inline]] inline void run_core(scheduler::Actor actor);
  void run_dma_phase(scheduler::Actor actor);
  [[noreturn]] void fail_exhausted(int global_core, const ops::PendingOp& op);
  // --- weft's API called off the core's own fiber (foreign_calls.cpp) ---
  // Core `global`'s API was called (`call`, at `line`) from code that is not its kernel's: from
  // another core's kernel (a kernel_error of that core, which is torn down) or from another
  // thread (a std::thread the kernel started), which cannot end the execution safely while the
  // simulation thread runs it: the process ends with a message naming the core and the call
  // and exit status 3.
  [[noreturn]] void called_elsewhere(int global, std::string_view call, model::SourceLine line);
  // The failure of a core whose fiber was abandoned by a signal (overflow, watchdog, fault), if so.
  std::optional<model::Failure> abandonment(const CoreSlot& slot) const;
  [[noreturn]] void throw_teardown(CoreSlot& slot);
  // A visible operation reached while tearing down: the fiber stays suspended there for good.
  [[noreturn]] void park(CoreSlot& slot, const ops::PendingOp& op);
  void note_teardown_problem(std::string problem);
  // The blocked cell (semaphore, global core) that needs DMA `dma_id`'s next phase (on_wait).
  std::optional<std::pair<int, int>> dma_needed_by(int dma_id) const;
  void body(int global_core);

  const std::function<void(Core&)>& kernel_;
  std::vector<CoreSlot> cores_;
  DmaPolicy dma_policy_;
  EnabledSet enabled_;
  SpinReduction spin_;
  std::optional<model::Failure> failure_;
  bool host_ran_out_ = false;
  std::optional<std::string> not_modelled_;
  int unfinished_ = 0;
  std::uint64_t steps_ = 0;
  TraceSink* trace_ = nullptr;
  ops::FootprintRules rules_;
  bool tearing_down_ = false;
  std::string teardown_problem_;
  double watchdog_seconds_ = 0;
  scheduler::FiberSwitch switch_;
  // While run_steps switches directly: its loop, the core whose step is under way, whether the
  // loop is over, and an exception thrown on a core's stack, for the caller.
  scheduler::StepLoop<Execution>* loop_ = nullptr;
  scheduler::StackPool& stacks_;
  std::byte* loop_stack_top_ = nullptr;  // where the direct loop's bookkeeping runs (other_stack.hpp)
  std::size_t running_core_ = no_core;
  bool loop_over_ = false;
  std::exception_ptr loop_error_;
};

}  // namespace weft::sim
