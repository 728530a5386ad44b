// The direct step loop (sim/engine/direct_steps.cpp) against the step loop that goes through
// the caller's context at every step (scheduler/step_loop.hpp's run_steps): on every built-in
// scenario, in every DMA execution mode, with random and PCT schedules, both must make the same
// picks and give the same verdict, report, failure sites and trace. A strategy that does not
// say it may run on a core's stack is given the caller's loop, so wrapping one in `ThroughCaller`
// selects the reference. The bookkeeping of the direct loop runs on a stack of its own.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "scenarios/registry.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/other_stack.hpp"
#include "scheduler/strategies/pct.hpp"
#include "scheduler/strategies/random.hpp"
#include "scheduler/strategies/replay.hpp"
#include "sim/engine/execution.hpp"
#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

// The same strategy, run through the caller's context at every step.
class ThroughCaller final : public scheduler::Strategy {
 public:
  explicit ThroughCaller(scheduler::Strategy& inner) : inner_(inner) {}
  std::size_t pick(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    return inner_.pick(enabled, context);
  }
  void after_step(scheduler::Actor actor, const scheduler::StepContext& context) override {
    inner_.after_step(actor, context);
  }
  void at_end(std::span<const scheduler::Actor> enabled, const scheduler::StepContext& context) override {
    inner_.at_end(enabled, context);
  }
  bool runs_on_core_stacks() const override { return false; }

 private:
  scheduler::Strategy& inner_;
};

// Every event, written out in full.
class EventLog final : public sim::TraceSink {
 public:
  void on_event(const sim::TraceEvent& event) override {
    text << static_cast<int>(event.kind) << ' ' << event.step << ' ' << scheduler::to_string(event.actor) << ' '
         << model::to_string(event.line) << ' ' << (event.buffer ? model::describe(event.buffer->info()) : "-") << ' '
         << model::to_string(event.rect) << ' '
         << (event.target_buffer ? model::describe(event.target_buffer->info()) : "-") << ' '
         << model::to_string(event.target_rect) << ' ' << event.semaphore_id << ' ' << event.target_core << ' '
         << event.amount << ' ' << event.count << ' ' << event.dma << '\n';
  }
  std::ostringstream text;
};

struct Outcome {
  sim::ExecutionResult result;
  std::string events;
};

Outcome run(sim::Simulation& simulation, scheduler::Strategy& strategy) {
  EventLog log;
  Outcome outcome{simulation.run(strategy, &log), {}};
  outcome.events = log.text.str();
  return outcome;
}

void check_same(const Outcome& direct, const Outcome& reference) {
  CHECK(scheduler::encode(direct.result.schedule) == scheduler::encode(reference.result.schedule));
  CHECK(direct.result.verdict == reference.result.verdict);
  CHECK(direct.result.details == reference.result.details);
  CHECK(direct.result.steps == reference.result.steps);
  CHECK(direct.result.sites.size() == reference.result.sites.size());
  CHECK(direct.events == reference.events);
}

sim::Config config_for(model::DmaExecution mode) {
  sim::Config config;
  config.machine.mesh = {3};
  config.machine.cores_per_device = 2;
  config.machine.dma_execution = mode;
  config.scheduler.watchdog_seconds = 0.2;  // hostile_spin waits for it on every run
  config.scheduler.max_steps = 20'000;
  return config;
}

}  // namespace

TEST_CASE("the direct step loop makes the picks and reports of the caller's loop on every scenario",
          "[sim][direct_steps]") {
  const auto registry = scenarios::builtin_scenarios();
  std::size_t runs = 0, failing = 0;
  for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager, model::DmaExecution::on_wait}) {
    for (const auto& scenario : registry) {
      sim::Simulation direct(config_for(mode), scenario, scenario.params);
      sim::Simulation reference(config_for(mode), scenario, scenario.params);
      const std::uint64_t seeds = scenario.name == "hostile_spin" ? 1 : 6;  // each of its runs waits for the watchdog
      for (std::uint64_t seed = 0; seed < seeds; ++seed) {
        CAPTURE(scenario.name, static_cast<int>(mode), seed);
        scheduler::RandomStrategy random(seed), random_again(seed);
        ThroughCaller random_through_caller(random_again);
        REQUIRE(random.runs_on_core_stacks());
        const Outcome random_direct = run(direct, random);
        check_same(random_direct, run(reference, random_through_caller));

        scheduler::PctStrategy pct(seed, 3, 200), pct_again(seed, 3, 200);
        ThroughCaller pct_through_caller(pct_again);
        check_same(run(direct, pct), run(reference, pct_through_caller));

        // The recorded schedule replays on the direct loop too.
        scheduler::ReplayStrategy replay(random_direct.result.schedule);
        check_same(run(direct, replay), random_direct);
        runs += 5;
        failing += random_direct.result.verdict != model::Verdict::ok;
      }
    }
  }
  // Both kinds of run were compared: clean ones, and ones that end in a finding (a race, a
  // deadlock, a kernel that threw, overflowed or overran the watchdog).
  CHECK(runs > 1000);
  CHECK(failing > 50);
}

TEST_CASE("a replay that diverges on a core's stack reaches the caller as the exception it is", "[sim][direct_steps]") {
  const auto registry = scenarios::builtin_scenarios();
  const auto* scenario = sim::find_scenario(registry, "ring_all_reduce");
  REQUIRE(scenario != nullptr);
  sim::Simulation simulation(config_for(model::DmaExecution::async), *scenario, scenario->params);
  auto schedule = simulation.run_seed(1).schedule;
  REQUIRE(schedule.size() > 20);
  schedule[20] = {scheduler::Actor::Kind::dma_read, 9999};  // no such DMA: picked on a core's stack
  schedule.resize(30);
  scheduler::ReplayStrategy replay(schedule);
  CHECK_THROWS_AS(simulation.run(replay), scheduler::ScheduleDiverged);
  // The simulation is still usable: the kernel was torn down, not left with the exception.
  CHECK(simulation.run_seed(1).verdict == model::Verdict::ok);
}

namespace {

// Random picks, noting where each pick's frame lies: on the stack of the core whose step just
// ended (the fiber running the pick), or elsewhere.
class WherePicked final : public scheduler::Strategy {
 public:
  explicit WherePicked(std::uint64_t seed) : inner_(seed) {}
  [[gnu::noinline]] std::size_t pick(std::span<const scheduler::Actor> enabled,
                                     const scheduler::StepContext& context) override {
    if (const scheduler::Fiber* fiber = scheduler::Fiber::current(); fiber != nullptr) {
      ++on_a_core_;
      on_its_stack_ += fiber->stack().contains(__builtin_frame_address(0));
    }
    return inner_.pick(enabled, context);
  }
  bool runs_on_core_stacks() const override { return true; }
  int on_a_core_ = 0;     // picks made inside a core's visible operation (the direct loop)
  int on_its_stack_ = 0;  // of those, picks whose frame was on that core's stack

 private:
  scheduler::RandomStrategy inner_;
};

}  // namespace

TEST_CASE("on many cores the direct loop's bookkeeping runs on the loop's own stack, on few on the core's",
          "[sim][direct_steps]") {
  const auto registry = scenarios::builtin_scenarios();
  const auto* scenario = sim::find_scenario(registry, "ring_all_gather");
  REQUIRE(scenario != nullptr);
  for (const int devices : {3, 16}) {
    sim::Config config = config_for(model::DmaExecution::async);
    config.machine.mesh = {devices};
    const auto cores = static_cast<std::size_t>(devices * config.machine.cores_per_device);
    const bool own_stack = scheduler::changes_stacks() && cores >= sim::loop_stack_min_cores;
    CAPTURE(cores, own_stack);
    sim::Simulation simulation(config, *scenario, scenario->params);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      WherePicked strategy(seed);
      const auto result = simulation.run(strategy);
      CHECK(result.verdict == model::Verdict::ok);
      CHECK(result.schedule == simulation.run_seed(seed).schedule);  // the same picks as plain random
      CHECK(strategy.on_a_core_ > 20);
      CHECK(strategy.on_its_stack_ == (own_stack ? 0 : strategy.on_a_core_));
    }
  }
}
