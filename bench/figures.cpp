#include "bench/figures.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>

#include <boost/context/fiber.hpp>

#include "bench/workloads.hpp"
#include "sim/request/request.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::bench {
namespace {

using Clock = std::chrono::steady_clock;  // measures only: it never influences a choice

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM"), 0 where there is none.
double status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1)) * 1024;  // in kB
  return 0;
}

}  // namespace

double switch_ns(int pairs) {
  namespace ctx = boost::context;
  bool done = false;
  // The fiber returns when done rather than being unwound: Boost.Context's unwinding throws on
  // the fiber's stack, which this bare fiber does not announce to AddressSanitizer.
  ctx::fiber fiber{[&done](ctx::fiber&& caller) {
    while (!done) caller = std::move(caller).resume();
    return std::move(caller);
  }};
  fiber = std::move(fiber).resume();  // warm up
  const auto start = Clock::now();
  for (int i = 0; i < pairs; ++i) fiber = std::move(fiber).resume();
  const double ns = seconds_since(start) * 1e9 / pairs;
  done = true;
  std::move(fiber).resume();
  return ns;
}

double step_ns(const sim::Config& config, std::int64_t iterations, int executions) {
  const sim::ScenarioDefinition mix = operation_mix();
  sim::Simulation simulation(config, mix, {{"iterations", iterations}});
  (void)simulation.run_seed(0);  // warm up the stack pool and the heap
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (int seed = 1; seed <= executions; ++seed) steps += simulation.run_seed(static_cast<std::uint64_t>(seed)).steps;
  return seconds_since(start) * 1e9 / static_cast<double>(steps);
}

ExecutionRate execution_rate(const sim::ScenarioDefinition& scenario, const sim::Config& config, int executions) {
  sim::Simulation simulation(config, scenario, scenario.params);
  (void)simulation.run_seed(0);
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (int seed = 1; seed <= executions; ++seed) steps += simulation.run_seed(static_cast<std::uint64_t>(seed)).steps;
  const double seconds = seconds_since(start);
  return {executions / seconds, seconds * 1e9 / static_cast<double>(std::max<std::uint64_t>(steps, 1))};
}

ExploreRate explore_rate(const sim::ScenarioDefinition& scenario, const sim::Config& config, double traces, int rounds,
                         int jobs) {
  std::vector<std::unique_ptr<sim::Simulation>> owned;
  std::vector<sim::Simulation*> simulations;
  for (int k = 0; k < jobs; ++k) {
    owned.push_back(std::make_unique<sim::Simulation>(config, scenario, scenario.params));
    simulations.push_back(owned.back().get());
  }
  std::uint64_t runs = 0, steps = 0;
  const auto start = Clock::now();
  for (int round = 0; round < rounds; ++round) {
    const auto report =
        jobs > 1 ? sim::explore_in_parallel(simulations, {}, true) : sim::explore(*owned.front(), {}, true);
    runs += report.complete + report.abandoned;
    steps += report.steps;
  }
  const double seconds = seconds_since(start);
  return {static_cast<double>(runs) / seconds, static_cast<double>(runs) / rounds / traces,
          seconds * 1e9 / static_cast<double>(std::max<std::uint64_t>(steps, 1))};
}

ExploreJobs explore_jobs(const sim::ScenarioDefinition& scenario, const sim::Config& config, int rounds) {
  ExploreJobs best;
  for (int round = 0; round < rounds; ++round)
    for (const int jobs : {1, 2}) {
      const ExploreRate rate = explore_rate(scenario, config, 1, 1, jobs);
      double& kept = jobs == 1 ? best.jobs1_runs_per_second : best.jobs2_runs_per_second;
      kept = std::max(kept, rate.runs_per_second);
    }
  return best;
}

double sweep_executions_per_second(const sim::ScenarioDefinition& scenario, const sim::Config& config, int jobs,
                                   std::uint64_t seeds) {
  sim::Request request;
  request.arguments.scenario = scenario.name;
  request.scenario = &scenario;
  request.config = config;
  request.params = scenario.params;
  sim::SweepOptions options;
  options.seeds = {1, seeds};
  options.jobs = jobs;
  const auto summary = sim::run_sweep(request, options, {});
  return static_cast<double>(summary.executions) / summary.seconds;
}

ScaleRun scale_run(const sim::ScenarioDefinition& scenario, const sim::Config& config, const sim::Params& params,
                   double min_seconds) {
  const double resident_before = status_bytes("VmRSS");
  sim::Simulation simulation(config, scenario, params);
  const auto cold = simulation.run_seed(0);
  ScaleRun run;
  run.cores = config.machine.cores();
  run.steps = cold.steps;
  run.verdict = std::string(model::to_string(cold.verdict));
  run.peak_bytes_per_core = (status_bytes("VmHWM") - resident_before) / run.cores;
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (std::uint64_t seed = 1; steps == 0 || seconds_since(start) < min_seconds; ++seed)
    steps += simulation.run_seed(seed).steps;
  run.ns_per_step = seconds_since(start) * 1e9 / static_cast<double>(steps);
  return run;
}

}  // namespace weft::bench
