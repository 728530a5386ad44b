// Hostile kernels, part 1: kernels that misbehave as programs. Each must end its execution with
// a clear kernel_error naming the core, never crash or hang weft, and leave the other cores
// unwound. Their scenario files are scenarios/hostile_*.toml; docs/hardening.md lists them all.
//   hostile_throw             device 1 throws a C++ exception while the others wait for it
//   hostile_check             device 2 fails one of its own checks (core.check)
//   hostile_recursion         unbounded recursion in the kernel's own code: the guard page
//   hostile_recursion_visible unbounded recursion with a visible operation in every frame
//   hostile_spin              device 0 spins forever without a visible operation: the watchdog
//   hostile_swallow_teardown  catch (...) without rethrow around a wait that never ends
#include <stdexcept>

#include "scenarios/registry.hpp"

namespace weft::scenarios {
namespace {

// Every device waits for a token from device 1, which fails instead of sending it.
void wait_for_device_one(sim::Core& core, bool fail_by_check) {
  auto token = core.semaphore();
  if (core.device_id() != 1) {
    core.wait(token);
    return;
  }
  if (fail_by_check) {
    core.check(core.num_devices() == 1, "device 1 expected to be alone");
  } else {
    throw std::runtime_error("planted failure on device 1");
  }
  for (int d = 0; d < core.num_devices(); ++d)
    if (d != 1) core.signal(token, 1, {.device = d});
}

// Recursion the optimizer cannot remove: each frame keeps a buffer alive across the call. The
// limit (parameter `depth`, default 2^62) is never reached.
__attribute__((noinline)) std::int64_t descend(std::int64_t depth, std::int64_t limit) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth >= limit) return frame[0];
  return descend(depth + 1, limit) + frame[0];
}

std::int64_t descend_visibly(sim::Core& core, sim::Semaphore sem, std::int64_t depth, std::int64_t limit) {
  volatile char frame[512];
  core.signal(sem);  // an effect at every depth: a read alone would be taken for a poll (docs/semantics.md §6)
  frame[0] = static_cast<char>(depth);
  if (depth >= limit) return frame[0];
  return descend_visibly(core, sem, depth + 1, limit) + frame[0];
}

sim::ScenarioDefinition hostile(std::string name, std::string summary, std::function<void(sim::Core&)> kernel) {
  sim::ScenarioDefinition s;
  s.name = std::move(name);
  s.summary = std::move(summary);
  s.expect = model::Verdict::kernel_error;
  s.kernel = std::move(kernel);
  return s;
}

}  // namespace

sim::ScenarioRegistry hostile_runtime_scenarios() {
  sim::ScenarioRegistry scenarios;
  scenarios.push_back(hostile("hostile_throw", "device 1 throws while the other devices wait for it",
                              [](sim::Core& core) { wait_for_device_one(core, false); }));
  scenarios.push_back(
      hostile("hostile_check", "device 2 fails its own check while the others wait", [](sim::Core& core) {
        auto sem = core.semaphore();
        if (core.device_id() == 2) core.check(false, "planted: the partial sum is wrong");
        core.wait(sem);
      }));
  const sim::Params unbounded{{"depth", std::int64_t{1} << 62}};
  scenarios.push_back(hostile("hostile_recursion", "unbounded recursion in the kernel's own code (stack overflow)",
                              [](sim::Core& core) {
                                auto sem = core.semaphore();
                                if (core.device_id() == 0)
                                  core.check(descend(0, core.param("depth")) >= 0, "unreachable");
                                core.wait(sem);
                              }));
  scenarios.push_back(hostile("hostile_recursion_visible", "unbounded recursion with a visible operation per frame",
                              [](sim::Core& core) {
                                auto sem = core.semaphore();
                                core.check(descend_visibly(core, sem, 0, core.param("depth")) >= 0, "unreachable");
                              }));
  for (auto& scenario : scenarios)
    if (scenario.name.starts_with("hostile_recursion")) scenario.params = unbounded;
  scenarios.push_back(
      hostile("hostile_spin", "device 0 spins forever without a visible operation (watchdog)", [](sim::Core& core) {
        auto sem = core.semaphore();
        if (core.device_id() == 0) {
          volatile std::uint64_t spins = 0;
          for (;;) spins = spins + 1;
        }
        core.wait(sem);
      }));
  scenarios.push_back(hostile("hostile_swallow_teardown", "catch (...) without rethrow around a wait that never ends",
                              [](sim::Core& core) {
                                auto never = core.semaphore();
                                for (;;) {
                                  try {
                                    core.wait(never);
                                  } catch (...) {
                                    // swallowed: weft's Teardown too
                                  }
                                }
                              }));
  return scenarios;
}

}  // namespace weft::scenarios
