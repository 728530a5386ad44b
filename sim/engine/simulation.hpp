#pragma once
// A Simulation owns everything one scenario needs across many executions: the configuration,
// the parameters and the fiber stacks (allocated once, reused by every execution). There is no
// global state, so simulations can live side by side (tests, parallel sweeps).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "model/machine.hpp"
#include "model/verdict.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "scheduler/schedule.hpp"
#include "scheduler/strategy.hpp"
#include "scheduler/fiber/watchdog.hpp"
#include "sim/config/config.hpp"
#include "sim/api/host.hpp"
#include "sim/events/trace_event.hpp"
#include "sim/api/scenario.hpp"
#include "sim/engine/host_code.hpp"
#include "sim/engine/host_snapshot.hpp"

namespace weft::sim {

struct ExecutionResult {
  model::Verdict verdict = model::Verdict::ok;
  std::string details{};  // what happened, for a kernel author (empty for ok)
  scheduler::Schedule schedule{};
  std::uint64_t steps = 0;
  std::vector<model::FailureSite> sites{};  // where the failure points (racing accesses, blocked waits)
};

class Simulation {
 public:
  Simulation(Config config, const ScenarioDefinition& scenario, Params params);

  // One execution with the configured strategy (scheduler.strategy, a registered name) and this seed.
  ExecutionResult run_seed(std::uint64_t seed, TraceSink* trace = nullptr);
  // One execution that follows `schedule` (and then lets the running actor go on).
  ExecutionResult run_schedule(const scheduler::Schedule& schedule, TraceSink* trace = nullptr);
  // `trace`, when given, sees every visible operation as it takes effect; `inspect`, when
  // given, sees the machine's final state (tests compare final memory).
  using Inspector = std::function<void(const model::Machine&)>;
  ExecutionResult run(scheduler::Strategy& strategy, TraceSink* trace = nullptr, const Inspector* inspect = nullptr);
  // PCT's steps estimate: scheduler.pct_steps, or when it is 0 the steps of a random execution
  // at seed 0 (measured on first use, then cached).
  std::uint64_t pct_steps();

  const Config& config() const { return config_; }
  const ScenarioDefinition& scenario() const { return scenario_; }
  const Params& params() const { return params_; }

 private:
  // The verdict of a run that ended: races, then the exit checks, then the host's check.
  void judge(const model::Machine& machine, const Host& host, ExecutionResult& result) const;
  // The scenario's setup; an exception from it, or a fault (host_code.hpp), becomes
  // std::invalid_argument naming the scenario.
  void run_setup(Host& host) const;
  // Starts (or moves to this thread) the watchdog of scheduler.watchdog_seconds, if any.
  void watch_this_thread();
  // The stack-overflow rescue's handlers and this thread's alternate stack
  // (scheduler/fiber/fiber_rescue.hpp): checked at the simulation's first execution on a
  // thread, then taken to stay. A system call per execution cost about 1.5 us on a virtual
  // machine, 7% of a small execution; code that replaces weft's SIGSEGV handler between two
  // executions of one simulation makes a later overflow in it fatal (a test framework's, put in
  // place around each test case before the simulation exists, is chained as ever).
  void rescue_this_thread();

  Config config_;
  const ScenarioDefinition& scenario_;
  Params params_;
  scheduler::StackPool stacks_;
  std::unique_ptr<scheduler::Watchdog> watchdog_;  // watches stacks_' fibers: declared after them
  std::optional<std::thread::id> rescued_thread_;  // where rescue_this_thread last installed
  std::optional<std::uint64_t> measured_pct_steps_;
  std::uint64_t launches_ = 0;  // executions run, so kernel handles know their launch
  // The running execution's schedule, recorded in place and then handed to its result (never
  // copied); the next execution reserves the longest length so far before its first step, so
  // recording a step allocates nothing once an execution of that length has run.
  scheduler::Schedule record_;
  std::size_t longest_schedule_ = 0;
  model::DmaRecords dma_storage_;            // the last machine's DMA records' storage, for the next
  std::optional<HostSnapshot> host_inputs_;  // what the setup left, after the first execution (if small enough)
  int program_launches_ = 1;    // the program's launches, as the setup left them (Host::set_program_launches)
  mutable HostCode host_code_;  // runs the setup and the check (on a fiber of their own)
};

}  // namespace weft::sim
