#include "sim/engine/simulation.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "model/compat.hpp"
#include "model/machine.hpp"
#include "scheduler/fiber/fiber_rescue.hpp"
#include "scheduler/strategies/random.hpp"
#include "scheduler/strategies/registry.hpp"
#include "scheduler/strategies/replay.hpp"
#include "sim/api/host.hpp"
#include "sim/config/config_error.hpp"
#include "sim/engine/execution.hpp"

namespace weft::sim {

Simulation::Simulation(Config config, const ScenarioDefinition& scenario, Params params)
    : config_(std::move(config)),
      scenario_(scenario),
      params_(std::move(params)),
      stacks_(static_cast<std::size_t>(config_.scheduler.stack_bytes)),
      host_code_(!scenario_.make_fiber) {}

ExecutionResult Simulation::run_seed(std::uint64_t seed, TraceSink* trace) {
  scheduler::StrategySettings settings;
  settings.name = config_.scheduler.strategy;
  settings.pct_depth = config_.scheduler.pct_depth;
  settings.steps_estimate = [this] { return pct_steps(); };
  const auto strategy = scheduler::make_strategy(settings, seed);
  return run(*strategy, trace);
}

// PCT's k: the configured pct_steps, or, when it is 0, the steps of one execution with the random
// strategy at seed 0, measured once. It depends on nothing that ran before, so every seed of a
// sharded, parallel sweep uses the same k.
std::uint64_t Simulation::pct_steps() {
  if (config_.scheduler.pct_steps > 0) return static_cast<std::uint64_t>(config_.scheduler.pct_steps);
  if (!measured_pct_steps_) {
    scheduler::RandomStrategy strategy(0);
    measured_pct_steps_ = run(strategy).steps;
  }
  return *measured_pct_steps_;
}

ExecutionResult Simulation::run_schedule(const scheduler::Schedule& schedule, TraceSink* trace) {
  scheduler::ReplayStrategy strategy(schedule);
  return run(strategy, trace);
}

ExecutionResult Simulation::run(scheduler::Strategy& strategy, TraceSink* trace, const Inspector* inspect) {
  model::Machine machine(config_.machine);
  machine.reuse_dma_storage(std::move(dma_storage_));
  if (config_.race_detection.enabled) {
    const bool accumulate = model::quirks_of(config_.machine.compat).accumulating_clocks;
    machine.enable_race_detection(
        accumulate ? model::SemaphoreClocks::accumulate : config_.race_detection.semaphore_clocks,
        config_.race_detection.keep_going, config_.race_detection.clocks);
  }
  Host host(machine, params_);
  rescue_this_thread();  // before the setup, which runs on a fiber too
  if (host_inputs_) {
    host_inputs_->restore(machine.memory());
    machine.set_launches(program_launches_);
  } else if (scenario_.setup) {
    run_setup(host);
    program_launches_ = machine.launches().count();  // the setup may have set it (Host::set_program_launches)
    if (!scenario_.setup_every_execution)            // nothing when too large: the setup runs again
      host_inputs_ = HostSnapshot::take(machine.memory(), config_.machine.uninitialized);
  }

  ExecutionResult result;
  {
    Execution execution(machine, stacks_, scenario_.kernel, params_, config_.scheduler.fiber_backend,
                        scenario_.make_fiber);
    execution.set_trace(trace);
    execution.set_watchdog_seconds(config_.scheduler.watchdog_seconds);
    execution.set_spin_reduction(config_.scheduler.spin_reduction);
    execution.set_launch_number(++launches_);
    watch_this_thread();
    execution.set_footprint_rules({config_.race_detection.enabled &&
                                   !model::quirks_of(config_.machine.compat).accumulating_clocks &&
                                   config_.race_detection.semaphore_clocks == SemaphoreClocks::precise});
    execution.launch();
    record_.clear();
    record_.reserve(longest_schedule_);
    const auto loop = execution.run_steps(strategy, static_cast<std::uint64_t>(config_.scheduler.max_steps), record_);
    longest_schedule_ = std::max(longest_schedule_, record_.size());
    result.schedule = std::move(record_);
    result.steps = loop.steps;
    if (execution.failure()) {
      result.verdict = execution.failure()->verdict;
      result.details = execution.failure()->message;
      result.sites = execution.failure()->sites;
    } else if (loop.end == scheduler::LoopEnd::no_enabled_actor) {
      result.verdict = model::Verdict::deadlock;
      result.details = "no core can move, but not every core has finished:" + execution.describe_blocked();
      result.sites = execution.blocked_sites();
    } else if (loop.end == scheduler::LoopEnd::step_limit) {
      result.verdict = model::Verdict::step_limit;
      result.details = "more than " + std::to_string(config_.scheduler.max_steps) +
                       " steps (scheduler.max_steps); where the cores stood:" + execution.describe_blocked();
    }
    execution.teardown();
    if (execution.host_ran_out()) throw std::bad_alloc();  // not the kernel's verdict: the caller stops
    if (execution.not_modelled()) throw NotModelled("scenario '" + scenario_.name + "': " + *execution.not_modelled());
    if (!execution.teardown_problem().empty()) {
      const std::string ended = result.verdict == model::Verdict::ok
                                    ? std::string()
                                    : "\n(before the teardown the execution had ended as " +
                                          std::string(model::to_string(result.verdict)) + ")";
      result.verdict = model::Verdict::kernel_error;
      result.details = execution.teardown_problem() + ended;
      result.sites.clear();
    }
  }
  judge(machine, host, result);
  if (inspect != nullptr) (*inspect)(machine);
  dma_storage_ = machine.release_dma_storage();
  return result;
}

// A setup that throws or faults is the scenario's fault, not weft's: a usage error naming the
// scenario. A budget refused (ConfigError), host memory exhausted (bad_alloc) and the host API's
// refusals (invalid_argument, "scenario setup: ...") keep their own reports.
void Simulation::run_setup(Host& host) const {
  try {
    if (const auto raised = host_code_.run("the setup", [&] { scenario_.setup(host); }))
      throw std::invalid_argument("scenario '" + scenario_.name + "': its setup " + *raised);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    throw std::invalid_argument("scenario '" + scenario_.name + "': its setup threw: " + error.what());
  } catch (...) {
    throw std::invalid_argument("scenario '" + scenario_.name + "': its setup threw an exception of unknown type");
  }
}

void Simulation::rescue_this_thread() {
  if (rescued_thread_ == std::this_thread::get_id()) return;
  scheduler::rescue::install();  // again: a SIGSEGV handler installed since the stack pool's install is chained
  scheduler::rescue::prepare_thread();
  rescued_thread_ = std::this_thread::get_id();
}

void Simulation::watch_this_thread() {
  const double budget = config_.scheduler.watchdog_seconds;
  if (budget <= 0 || scenario_.make_fiber) return;  // a binding's fibers have a watchdog of their own
  if (watchdog_ && watchdog_->watches_this_thread()) return;
  watchdog_.reset();
  watchdog_ = std::make_unique<scheduler::Watchdog>(stacks_.activity(), budget);
}

void Simulation::judge(const model::Machine& machine, const Host& host, ExecutionResult& result) const {
  if (machine.races() && !machine.races()->reports().empty()) {
    std::string ended =
        result.verdict == model::Verdict::ok ? std::string() : std::string(model::to_string(result.verdict));
    result.verdict = model::Verdict::data_race;
    result.details.clear();
    for (const auto& report : machine.races()->reports())
      result.details += (result.details.empty() ? "" : "\n") + report;
    result.sites = machine.races()->sites();
    if (!ended.empty()) result.details += "\n(after the races the execution ended as " + ended + ")";
    return;
  }
  if (result.verdict != model::Verdict::ok) return;
  if (auto failure = machine.exit_check()) {
    result.verdict = failure->verdict;
    result.details = failure->message;
    return;
  }
  if (scenario_.check) {
    std::string wrong;
    try {
      if (const auto raised = host_code_.run("the host check", [&] { wrong = scenario_.check(host); })) {
        result.verdict = model::Verdict::kernel_error;  // not a wrong result: nothing was judged
        result.details = "the scenario's host check " + *raised;
        return;
      }
    } catch (const NotModelled&) {  // weft's gap: no verdict (the command's exit status 2)
      throw;
    } catch (const std::exception& error) {  // the scenario's check, not weft, is wrong: a verdict
      wrong = std::string("it threw: ") + error.what();
    } catch (...) {
      wrong = "it threw an exception of unknown type";
    }
    if (!wrong.empty()) {
      result.verdict = model::Verdict::wrong_result;
      result.details = "the host check rejected the outputs: " + wrong;
      if (!machine.notes().empty()) result.details += "\nwhat the hardware did that may explain it:";
      for (const std::string& note : machine.notes()) result.details += "\n  " + note;
    }
  }
}

}  // namespace weft::sim
