// weft_bench: the cost figures of one build on this machine, all measured in the same run and
// printed as one JSON object. Compare ratios, not absolute numbers: machines are shared.
//   switch_ns        a bare Boost.Context resume + suspend pair
//   step_ns          one visible operation through the scheduler (a mix of loads, stores,
//                    signals and waits on 4 cores), race detection off
//   step_ns_boost_fiber  the same, with scheduler.fiber_backend = "boost_fiber"
//   ring_all_gather_8_executions_per_s   f32 8x128 tiles on 8 devices, async DMAs, races on
//   races_off_over_races_on  the cost of race detection on ring_all_reduce, 8 devices
//   explore_*                runs per second of `weft explore` on lastzero(4) and readers(6), and
//                            runs per interleaving class (1.0 is optimal)
#include <chrono>
#include <cstdio>

#include <malloc.h>

#include <boost/context/fiber.hpp>

#include "scenarios/registry.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/simulation.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double switch_ns() {
  namespace ctx = boost::context;
  constexpr int pairs = 2'000'000;
  ctx::fiber fiber{[](ctx::fiber&& caller) {
    for (;;) caller = std::move(caller).resume();
    return std::move(caller);
  }};
  fiber = std::move(fiber).resume();  // warm up
  const auto start = Clock::now();
  for (int i = 0; i < pairs; ++i) fiber = std::move(fiber).resume();
  return seconds_since(start) * 1e9 / pairs;
}

weft::sim::ScenarioDefinition operation_mix() {
  weft::sim::ScenarioDefinition s;
  s.name = "operation_mix";
  s.params = {{"iterations", 5000}};
  s.kernel = [](weft::sim::Core& core) {
    auto scratch = core.vmem<float>({8});
    auto sem = core.semaphore();
    const weft::sim::Tile<float> tile = weft::sim::Tile<float>::Zero(1, 8);
    for (std::int64_t i = 0, n = core.param("iterations"); i < n; ++i) {
      core.store(scratch, tile);
      (void)core.load(scratch);
      core.signal(sem);
      core.wait(sem);
    }
  };
  return s;
}

double step_ns() {
  const auto scenario = operation_mix();
  weft::sim::Config config;
  config.machine.mesh = {4};
  config.race_detection.enabled = false;
  weft::sim::Simulation simulation(config, scenario, scenario.params);
  (void)simulation.run_seed(0);  // warm up the stack pool and the heap
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (std::uint64_t seed = 1; seed <= 5; ++seed) steps += simulation.run_seed(seed).steps;
  return seconds_since(start) * 1e9 / static_cast<double>(steps);
}

// step_ns on the Boost.Fiber backend: the same operation mix, measured the same way.
double step_ns_boost_fiber() {
  const auto scenario = operation_mix();
  weft::sim::Config config;
  config.machine.mesh = {4};
  config.race_detection.enabled = false;
  config.scheduler.fiber_backend = weft::scheduler::FiberBackend::boost_fiber;
  weft::sim::Simulation simulation(config, scenario, scenario.params);
  (void)simulation.run_seed(0);  // warm up the stack pool, the heap and the thread's Boost.Fiber scheduler
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (std::uint64_t seed = 1; seed <= 5; ++seed) steps += simulation.run_seed(seed).steps;
  return seconds_since(start) * 1e9 / static_cast<double>(steps);
}

double executions_per_second(const std::string& name, int devices, bool races) {
  const auto registry = weft::scenarios::builtin_scenarios();
  const auto* scenario = weft::sim::find_scenario(registry, name);
  weft::sim::Config config;
  config.machine.mesh = {devices};
  config.race_detection.enabled = races;
  weft::sim::Simulation simulation(config, *scenario, scenario->params);
  (void)simulation.run_seed(0);
  constexpr int executions = 2000;
  const auto start = Clock::now();
  for (int seed = 1; seed <= executions; ++seed) (void)simulation.run_seed(static_cast<std::uint64_t>(seed));
  return executions / seconds_since(start);
}

// Runs per second of `weft explore` on a yardstick kernel, and runs per interleaving class.
std::pair<double, double> explore_rate(const std::string& name, int cores, double traces) {
  const auto registry = weft::scenarios::builtin_scenarios();
  const auto* scenario = weft::sim::find_scenario(registry, name);
  weft::sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = cores;
  config.machine.uninitialized = weft::model::Uninitialized::zero;
  config.race_detection.enabled = false;
  weft::sim::Simulation simulation(config, *scenario, scenario->params);
  constexpr int rounds = 20;
  std::uint64_t runs = 0;
  const auto start = Clock::now();
  for (int round = 0; round < rounds; ++round) {
    const auto report = weft::sim::explore(simulation, {}, true);
    runs += report.complete + report.abandoned;
  }
  return {static_cast<double>(runs) / seconds_since(start), static_cast<double>(runs) / rounds / traces};
}

}  // namespace

int main() {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);  // as the CLI does: keep the heap between executions
  mallopt(M_TOP_PAD, 64 << 20);
  const double sw = switch_ns();
  const double step = step_ns();
  const double step_boost_fiber = step_ns_boost_fiber();
  const double gather = executions_per_second("ring_all_gather", 8, true);
  const double reduce = executions_per_second("ring_all_reduce", 8, true);
  const double reduce_off = executions_per_second("ring_all_reduce", 8, false);
  const auto [lastzero_rate, lastzero_ratio] = explore_rate("lastzero", 5, 28);
  const auto [readers_rate, readers_ratio] = explore_rate("readers", 7, 64);
  std::printf(
      "{\"switch_ns\": %.1f, \"step_ns\": %.1f, \"step_ns_over_switch_ns\": %.1f,\n"
      " \"step_ns_boost_fiber\": %.1f,\n"
      " \"ring_all_gather_8_executions_per_s\": %.0f, \"ring_all_reduce_8_executions_per_s\": %.0f,\n"
      " \"ring_all_reduce_8_races_off_executions_per_s\": %.0f, \"races_off_over_races_on\": %.2f,\n"
      " \"explore_lastzero4_runs_per_s\": %.0f, \"explore_lastzero4_runs_per_trace\": %.2f,\n"
      " \"explore_readers6_runs_per_s\": %.0f, \"explore_readers6_runs_per_trace\": %.2f}\n",
      sw, step, step / sw, step_boost_fiber, gather, reduce, reduce_off, reduce_off / reduce, lastzero_rate,
      lastzero_ratio, readers_rate, readers_ratio);
}
