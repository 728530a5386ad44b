#pragma once
// Each function measures one figure of `weft bench` now, on this machine. Figures are only
// comparable with figures of the same run (machines are shared and noisy): the summary prints
// ratios beside them. Nothing here is asserted by a test; tests only check that it runs.

#include <cstdint>
#include <string>

#include "sim/config/config.hpp"
#include "sim/api/scenario.hpp"

namespace weft::bench {

// A bare Boost.Context resume + suspend pair, in nanoseconds.
double switch_ns(int pairs);

// Nanoseconds per step (one visible operation through the scheduler: suspend, strategy pick,
// model, resume) of `executions` executions of the operation mix under `config`.
double step_ns(const sim::Config& config, std::int64_t iterations, int executions);

// Executions of `scenario` under `config`, seeds 1..executions (after one warm-up): per second,
// and nanoseconds per step of whole executions (setup, check and teardown included).
struct ExecutionRate {
  double executions_per_second = 0;
  double ns_per_step = 0;
};
ExecutionRate execution_rate(const sim::ScenarioDefinition& scenario, const sim::Config& config, int executions);

struct ExploreRate {
  double runs_per_second = 0;
  double runs_per_trace = 0;  // runs per interleaving class: 1.0 is optimal
  double ns_per_step = 0;     // of the runs executed, abandoned ones included, the analysis included
};
// `weft explore --jobs J` of `scenario` under `config`, `rounds` times; `traces` is the known
// number of interleaving classes. One job: the one-thread explorer; more: the shared tree.
ExploreRate explore_rate(const sim::ScenarioDefinition& scenario, const sim::Config& config, double traces, int rounds,
                         int jobs = 1);

// `weft explore` of `scenario` with one job and with two, `rounds` explorations of each taken in
// turn (one, two, one, two...): the runs per second of each one's fastest, so that a burst of
// load on a shared machine counts against neither.
struct ExploreJobs {
  double jobs1_runs_per_second = 0;
  double jobs2_runs_per_second = 0;
};
ExploreJobs explore_jobs(const sim::ScenarioDefinition& scenario, const sim::Config& config, int rounds);

// Executions per second of `weft sweep --jobs N` over `seeds` seeds.
double sweep_executions_per_second(const sim::ScenarioDefinition& scenario, const sim::Config& config, int jobs,
                                   std::uint64_t seeds);

struct ScaleRun {
  int cores = 0;
  std::uint64_t steps = 0;         // of one execution
  double ns_per_step = 0;          // warm executions only (after seed 0 filled the stack pool and heap)
  std::string verdict;             // of seed 0
  double peak_bytes_per_core = 0;  // seed 0's rise of the process's peak resident set, per core
};
// Executions of `scenario` under `config`: seed 0 (cold, for memory), then seeds 1, 2, ... until
// at least `min_seconds` have passed. The memory figure is meaningful only when this is the
// largest run of the process so far.
ScaleRun scale_run(const sim::ScenarioDefinition& scenario, const sim::Config& config, const sim::Params& params,
                   double min_seconds);

}  // namespace weft::bench
