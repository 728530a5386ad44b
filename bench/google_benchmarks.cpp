// weft_benchmarks: the workloads of `weft bench` under Google Benchmark, one benchmark each, for
// profiling one of them (`perf record build/weft_benchmarks --benchmark_filter=step`). The
// figures of record are `weft bench`'s (docs/performance.md).
#include <benchmark/benchmark.h>

#include <boost/context/fiber.hpp>

#include "bench/workloads.hpp"
#include "scenarios/registry.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/simulation.hpp"

namespace {

using namespace weft;

void switch_pair(benchmark::State& state) {
  namespace ctx = boost::context;
  ctx::fiber fiber{[](ctx::fiber&& caller) {
    for (;;) caller = std::move(caller).resume();
    return std::move(caller);
  }};
  for (auto _ : state) fiber = std::move(fiber).resume();
}

// One execution per iteration; reports nanoseconds per step besides.
void executions(benchmark::State& state, const sim::ScenarioDefinition& scenario, const sim::Config& config,
                const sim::Params& params) {
  sim::Simulation simulation(config, scenario, params);
  (void)simulation.run_seed(0);
  std::uint64_t seed = 1, steps = 0;
  for (auto _ : state) steps += simulation.run_seed(seed++).steps;
  state.counters["steps"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void explore_runs(benchmark::State& state, const sim::ScenarioDefinition& scenario, const sim::Config& config) {
  sim::Simulation simulation(config, scenario, scenario.params);
  std::uint64_t runs = 0;
  for (auto _ : state) runs += sim::explore(simulation, {}, true).complete;
  state.counters["runs"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}

}  // namespace

int main(int argc, char** argv) {
  const auto registry = scenarios::builtin_scenarios();
  const auto mix = bench::operation_mix();
  const sim::Params mix_params{{"iterations", 500}};
  const auto& gather = bench::scenario(registry, "ring_all_gather");
  const auto& reduce = bench::scenario(registry, "ring_all_reduce");

  benchmark::RegisterBenchmark("switch_pair", switch_pair);
  benchmark::RegisterBenchmark("step/races_off", executions, mix, bench::operation_mix_config(false), mix_params);
  // The step on one core: no random pick to mispredict, the same operation cycle every time
  // (it costs about what four cores do: a step's cost is not in the pick).
  auto one_core = bench::operation_mix_config(false);
  one_core.machine.mesh = {1};
  benchmark::RegisterBenchmark("step/one_core", executions, mix, one_core, mix_params);
  benchmark::RegisterBenchmark("step/races_on", executions, mix, bench::operation_mix_config(true), mix_params);
  benchmark::RegisterBenchmark("step/boost_fiber", executions, mix,
                               bench::operation_mix_config(false, scheduler::FiberBackend::boost_fiber), mix_params);
  benchmark::RegisterBenchmark("ring_all_gather/8", executions, gather, bench::collective_config(8, 1, true),
                               gather.params);
  benchmark::RegisterBenchmark("ring_all_reduce/8", executions, reduce, bench::collective_config(8, 1, true),
                               reduce.params);
  benchmark::RegisterBenchmark("ring_all_reduce/8/races_off", executions, reduce, bench::collective_config(8, 1, false),
                               reduce.params);
  benchmark::RegisterBenchmark("explore/lastzero4", explore_runs, bench::scenario(registry, "lastzero"),
                               bench::explore_config(5));
  benchmark::RegisterBenchmark("explore/ring_all_reduce3", explore_runs, reduce, bench::collective_config(3, 1, false));
  benchmark::RegisterBenchmark("ring_all_reduce/3/races_off", executions, reduce, bench::collective_config(3, 1, false),
                               reduce.params);
  for (int devices : {16, 64, 256})
    benchmark::RegisterBenchmark(("ring_all_gather_scale/" + std::to_string(devices * 4) + "_cores").c_str(),
                                 executions, gather, bench::collective_config(devices, 4, true), bench::scale_tiles())
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
