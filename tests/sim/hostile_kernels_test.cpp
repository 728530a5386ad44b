// Hostile kernels: each ends its execution with a kernel_error that names the core (and, for
// API misuse, the call's source line) in every DMA mode, the other cores unwind, and the
// simulation goes on working afterwards.

#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

const sim::ScenarioRegistry& registry() {
  static const auto scenarios = scenarios::builtin_scenarios();
  return scenarios;
}

sim::Config ring4(model::DmaExecution mode = model::DmaExecution::async) {
  sim::Config config;
  config.machine.mesh = {4};
  config.machine.dma_execution = mode;
  config.scheduler.watchdog_seconds = 2;  // hostile_spin's runs set 0.2
  return config;
}

sim::ExecutionResult run(const sim::ScenarioDefinition& scenario, std::uint64_t seed, const sim::Config& config) {
  sim::Simulation simulation(config, scenario, scenario.params);
  return simulation.run_seed(seed);
}

struct Expected {
  const char* scenario;
  std::vector<std::string> fragments;  // each must appear in the report
};

}  // namespace

TEST_CASE("Every hostile kernel is a kernel_error naming the core and the call, in every DMA mode",
          "[sim][hardening]") {
  const std::vector<Expected> cases{
      {"hostile_throw", {"device 1 core 0 threw: planted failure on device 1"}},
      {"hostile_check", {"device 2 core 0 failed its check at hostile_runtime.cpp:", "planted"}},
      {"hostile_recursion", {"device 0 core 0 overflowed its fiber stack (262144 bytes", "in its own code"}},
      {"hostile_recursion_visible",
       {"overflowed its fiber stack: less than 32768", "at a visible operation at hostile_runtime.cpp:"}},
      {"hostile_spin", {"device 0 core 0 ran its own code for 0.2 s without a visible operation", "watchdog"}},
      {"hostile_swallow_teardown",
       {"caught weft's teardown and did not rethrow it",
        "went on to a visible operation at hostile_runtime.cpp:", "had ended as deadlock"}},
      {"hostile_buffer_order", {"allocation order differs between cores: buffer 100", "(at hostile_api.cpp:"}},
      {"hostile_semaphore_order", {"allocation order differs between cores: semaphore 2000", "(at hostile_api.cpp:"}},
      {"hostile_signal_no_device",
       {"signals semaphore 2000 on device 4 core 0, which does not exist (at hostile_api.cpp:"}},
      {"hostile_signal_no_core", {" core 4, which does not exist (at hostile_api.cpp:"}},
      {"hostile_signal_zero", {"signals semaphore 2000 by 0 (an increment must be positive) (at hostile_api.cpp:"}},
      {"hostile_signal_negative", {"by -3 (an increment must be positive) (at hostile_api.cpp:"}},
      {"hostile_wait_zero", {"waits on semaphore 2000 '", " for 0 at hostile_api.cpp:"}},
      {"hostile_dma_shapes",
       {"starts a DMA at hostile_api.cpp:", "source shape [4, 128] differs from the destination shape [8, 128]"}},
      {"hostile_dma_empty", {"starts a DMA at hostile_api.cpp:", "the copy is empty"}},
      {"hostile_dma_no_device", {"starts a DMA at hostile_api.cpp:", "device 5 does not exist"}},
      {"hostile_foreign_barrier",
       {"waits at hostile_api.cpp:", "barrier semaphore 7 is the barrier semaphore of another launch"}},
      {"hostile_forged_semaphore", {"signals at hostile_api.cpp:", "comes from no launch"}},
      {"hostile_empty_ref", {"loads at hostile_api.cpp:", "an empty ref"}},
      {"hostile_negative_extent", {"stores at hostile_api.cpp:", "negative extent -2 in dimension 0"}},
      {"hostile_negative_shape", {"allocates vmem of shape [8, -1] at hostile_api.cpp:", "is negative"}},
      {"hostile_five_dimensions",
       {"allocates vmem of shape [1, 1, 1, 1, ...] at hostile_api.cpp:", "a shape of 5 dimensions (at most 4)"}},
      {"hostile_store_shape", {"stores at hostile_api.cpp:", "a 1x64 tile into a ref of shape [8, 128]"}},
      {"hostile_unknown_host_buffer",
       {"takes a host buffer at hostile_api.cpp:", "no host buffer 'nonexistent' on device"}},
      {"hostile_host_buffer_type", {"takes a host buffer at hostile_api.cpp:", "host buffer 'x' holds f32, not i32"}},
      {"hostile_semaphore_index",
       {"waits at hostile_api.cpp:", "index 4 of an array of 4 dma semaphores (ids 2000..2003)"}},
      {"hostile_semaphore_count",
       {"allocates an array of 0 regular semaphores at hostile_api.cpp:", "the count must be positive"}},
      {"hostile_mask_shape",
       {"stores at hostile_api.cpp:", "a 1x64 mask for a ref of shape [8, 128] (its tiles are 8x128)"}},
      {"hostile_swap_shape", {"swaps at hostile_api.cpp:", "a 1x64 tile into a ref of shape [8, 128]"}},
      {"hostile_dma_no_core", {"starts a DMA at hostile_api.cpp:", "core 1 of device", "does not exist"}},
      {"hostile_dma_add_bool",
       {"starts a DMA at hostile_api.cpp:", "a DMA that adds needs numbers, not bool elements"}},
      {"hostile_undeclared_param",
       {"reads a parameter at hostile_api.cpp:", "the scenario declares no parameter 'nonexistent'"}},
  };
  std::size_t hostile_in_registry = 0;
  for (const auto& scenario : registry()) hostile_in_registry += scenario.name.starts_with("hostile_") ? 1 : 0;
  CHECK(hostile_in_registry == cases.size());
  for (const auto& c : cases) {
    const auto* scenario = sim::find_scenario(registry(), c.scenario);
    REQUIRE(scenario != nullptr);
    CHECK(scenario->expect == model::Verdict::kernel_error);
    for (auto mode : {model::DmaExecution::eager, model::DmaExecution::on_wait, model::DmaExecution::async}) {
      for (std::uint64_t seed : {0u, 1u}) {
        if (std::string(c.scenario) == "hostile_spin" && (seed > 0 || mode != model::DmaExecution::async)) continue;
        CAPTURE(c.scenario, static_cast<int>(mode), seed);
        auto config = ring4(mode);
        if (std::string(c.scenario) == "hostile_spin") config.scheduler.watchdog_seconds = 0.2;
        const auto result = run(*scenario, seed, config);
        INFO(result.details);
        CHECK(result.verdict == model::Verdict::kernel_error);
        for (const auto& fragment : c.fragments) CHECK(result.details.find(fragment) != std::string::npos);
      }
    }
  }
}

namespace {

// Counts the kernel frames that were unwound (their destructors ran).
struct Unwound {
  int* count;
  ~Unwound() { ++*count; }
};

__attribute__((noinline)) std::int64_t descend(std::int64_t depth, std::int64_t limit) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth >= limit) return frame[0];
  return descend(depth + 1, limit) + frame[0];
}

sim::ScenarioDefinition guarded(std::string name, int* unwound, std::function<void(sim::Core&)> misbehave) {
  sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.expect = model::Verdict::kernel_error;
  s.kernel = [unwound, misbehave](sim::Core& core) {
    const Unwound guard{unwound};
    auto never = core.semaphore();
    if (core.device_id() == 1) misbehave(core);
    core.wait(never);
  };
  return s;
}

}  // namespace

TEST_CASE("When one core fails, every other core is unwound: its destructors run", "[sim][hardening]") {
  int unwound = 0;
  SECTION("a kernel that throws unwinds itself too") {
    const auto scenario = guarded("throws", &unwound, [](sim::Core&) { throw std::runtime_error("planted"); });
    const auto result = run(scenario, 0, ring4());
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK(unwound == 4);
  }
  SECTION("a failed check") {
    const auto scenario = guarded("check", &unwound, [](sim::Core& core) { core.check(false, "planted"); });
    CHECK(run(scenario, 0, ring4()).verdict == model::Verdict::kernel_error);
    CHECK(unwound == 4);
  }
  SECTION("an overflowed core is abandoned, the others are unwound") {
    const auto scenario = guarded("overflow", &unwound, [](sim::Core&) { descend(0, std::int64_t{1} << 62); });
    const auto result = run(scenario, 0, ring4());
    CHECK(result.verdict == model::Verdict::kernel_error);
    CHECK(result.details.find("device 1 core 0 overflowed") != std::string::npos);
    CHECK(unwound == 3);
  }
}

TEST_CASE("A simulation goes on after fibers were abandoned, with the same results", "[sim][hardening]") {
  const auto* overflow = sim::find_scenario(registry(), "hostile_recursion");
  const auto* swallow = sim::find_scenario(registry(), "hostile_swallow_teardown");
  REQUIRE(overflow != nullptr);
  REQUIRE(swallow != nullptr);
  for (const auto* scenario : {overflow, swallow}) {
    sim::Simulation simulation(ring4(), *scenario, scenario->params);
    const auto first = simulation.run_seed(5);
    for (int again = 0; again < 30; ++again) {
      const auto result = simulation.run_seed(5);
      CHECK(result.verdict == model::Verdict::kernel_error);
      CHECK(result.details == first.details);
      CHECK(scheduler::encode(result.schedule) == scheduler::encode(first.schedule));
    }
  }
}

TEST_CASE("A semaphore handle kept from an earlier launch is a kernel_error", "[sim][hardening]") {
  std::optional<sim::Semaphore> kept;
  sim::ScenarioDefinition scenario;
  scenario.name = "stale_handle";
  scenario.kernel = [&kept](sim::Core& core) {
    auto sem = core.semaphore();
    if (core.device_id() == 0 && !kept) kept = sem;
    core.signal(kept && core.device_id() == 0 ? *kept : sem, 1);
    core.wait(sem);
  };
  sim::Simulation simulation(ring4(), scenario, {});
  CHECK(simulation.run_seed(0).verdict == model::Verdict::ok);
  const auto second = simulation.run_seed(0);
  CHECK(second.verdict == model::Verdict::kernel_error);
  CHECK(second.details.find("comes from another launch") != std::string::npos);
}

TEST_CASE("A ref kept from an earlier launch is a kernel_error, not a use of freed memory", "[sim][hardening]") {
  std::optional<sim::Ref<float>> kept;
  sim::ScenarioDefinition scenario;
  scenario.name = "stale_ref";
  scenario.kernel = [&kept](sim::Core& core) {
    auto scratch = core.vmem<float>({8});
    if (core.device_id() == 0 && !kept) kept = scratch;
    core.store(core.device_id() == 0 ? *kept : scratch, sim::Tile<float>::Zero(1, 8));
  };
  sim::Simulation simulation(ring4(), scenario, {});
  CHECK(simulation.run_seed(0).verdict == model::Verdict::ok);
  const auto second = simulation.run_seed(0);
  CHECK(second.verdict == model::Verdict::kernel_error);
  CHECK(second.details.find("device 0 core 0 stores at") != std::string::npos);
  CHECK(second.details.find("a ref from another launch") != std::string::npos);
}

TEST_CASE("A visible operation in a destructor during teardown does not change the verdict", "[sim][hardening]") {
  struct SignalOnExit {
    sim::Core& core;
    sim::Semaphore sem;
    ~SignalOnExit() { core.signal(sem, 1); }
  };
  sim::ScenarioDefinition scenario;
  scenario.name = "raii_signal";
  scenario.kernel = [](sim::Core& core) {
    auto never = core.semaphore();
    auto released = core.semaphore();
    const SignalOnExit release{core, released};
    core.wait(never);
  };
  const auto result = run(scenario, 0, ring4());
  CHECK(result.verdict == model::Verdict::deadlock);
}

TEST_CASE("The watchdog never changes a schedule", "[sim][hardening]") {
  for (const char* name : {"ring_all_reduce", "right_permute", "hostile_throw", "hostile_recursion"}) {
    const auto* scenario = sim::find_scenario(registry(), name);
    REQUIRE(scenario != nullptr);
    sim::Config off = ring4();
    off.scheduler.watchdog_seconds = 0;
    sim::Config tight = ring4();
    tight.scheduler.watchdog_seconds = 0.5;  // running, but never firing on these kernels
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(name, seed);
      const auto a = run(*scenario, seed, off);
      const auto b = run(*scenario, seed, tight);
      CHECK(scheduler::encode(a.schedule) == scheduler::encode(b.schedule));
      CHECK(a.verdict == b.verdict);
      CHECK(a.details == b.details);
    }
  }
}

// With the direct step loop a core picked again goes on without a switch; each step is still a
// run of its own for the watchdog, so a long kernel of short steps is never taken for a spin.
TEST_CASE("A core that keeps being picked for longer than the watchdog's budget is not interrupted",
          "[sim][hardening]") {
  constexpr double budget = 0.05;
  const double lasting = 8 * budget;  // by the kernel's own wall clock: long enough on any machine
  sim::ScenarioDefinition scenario;
  scenario.name = "long_single_core";
  scenario.kernel = [lasting](sim::Core& core) {
    auto sem = core.semaphore();
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(lasting);
    while (std::chrono::steady_clock::now() < until) {
      for (int i = 0; i < 100; ++i) {
        core.signal(sem, 1);
        core.wait(sem, 1);
        // Most of the time in the kernel's own code, where an interrupt would take effect.
        volatile int spun = 0;
        for (int spin = 0; spin < 500; ++spin) spun = spun + 1;
      }
    }
  };
  sim::Config config;
  config.machine.mesh = {1};  // one core: every pick is the same core, so no step switches
  config.scheduler.watchdog_seconds = budget;
  config.scheduler.max_steps = 1'000'000'000;
  sim::Simulation simulation(config, scenario, {});
  const auto result = simulation.run_seed(0);
  CHECK(result.verdict == model::Verdict::ok);
  CHECK(result.details == "");
  CHECK(result.steps > 200);
}
