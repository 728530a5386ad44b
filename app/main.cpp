#include "app/main.hpp"

#include <iostream>
#include <iterator>

#include "bench/summary.hpp"
#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"
#include "sim/config/config_error.hpp"
#include "sim/plugin/exit_guard.hpp"

namespace weft {

int main(int argc, char** argv, sim::ScenarioRegistry own_scenarios, const sim::ScriptLoader& scripts,
         const PythonBench& python_bench) {
  // Until the command returns, an exit() from code that is not weft's (a kernel, a kernel
  // library) ends the process with a status of weft's (3, or 2), never with its own.
  const sim::ExitGuard guard;
  sim::ScenarioRegistry registry = scenarios::builtin_scenarios();
  registry.insert(registry.end(), std::make_move_iterator(own_scenarios.begin()),
                  std::make_move_iterator(own_scenarios.end()));
  const auto bench = [&registry, &scripts, &python_bench](const sim::BenchRequest& request) {
    bench::SummaryOptions options{request.quick, request.scale_devices};
    sim::ScenarioRegistry python;  // the Python workload's scenarios, alive while they are measured
    if (!scripts || python_bench.script.empty()) {
      options.python_absent = "measured by `python3 -m weft bench`, beside the C++ figures of that process";
    } else {
      try {
        python = scripts(python_bench.script);
        options.python_gather = sim::find_scenario(python, "_bench_kernels::ring_all_gather");
        if (options.python_gather == nullptr)
          options.python_absent = "no ring_all_gather in " + python_bench.script.string();
      } catch (const sim::ConfigError& error) {
        options.python_absent = error.what();
      }
    }
    if (!request.reference) {
      options.reference_absent =
          "measured by `python3 -m weft bench --reference JAX_SOURCE` (docs/performance/python.md)";
    } else if (!python_bench.reference_rate) {
      throw sim::ConfigError("--reference", 0, 0, "",
                             "interpret mode is measured by `python3 -m weft bench --reference " +
                                 request.reference->string() + "`, not by the weft executable");
    } else {
      const std::filesystem::path jax_source = *request.reference;
      python_bench.reference_rate(jax_source, 1);  // a tree it cannot use fails before anything is measured
      options.reference_rate = [&python_bench, jax_source](int executions) {
        return python_bench.reference_rate(jax_source, executions);
      };
    }
    const auto figures = bench::summary(registry, options);
    std::cout << figures.dump(1) << "\n";
    return 0;
  };
  return sim::run_cli(argc, argv, registry, bench, scripts);
}

}  // namespace weft
