#include "bench/summary.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "bench/figures.hpp"
#include "bench/progress.hpp"
#include "bench/run_lengths.hpp"
#include "bench/scale_estimate.hpp"
#include "bench/workloads.hpp"
#include "model/host_memory.hpp"

namespace weft::bench {
namespace {

double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

}  // namespace

nlohmann::ordered_json summary(const sim::ScenarioRegistry& registry, const SummaryOptions& options) {
  const int effort = options.quick ? 1 : 10;  // executions and rounds scale with it
  nlohmann::ordered_json out;
  const auto& gather = scenario(registry, "ring_all_gather");
  const auto& reduce = scenario(registry, "ring_all_reduce");

  const int large_devices = options.scale_devices.value_or(options.quick ? 32 : 256);
  // 64 cores, against which every large size is measured (fewer for a quick run's 32 devices).
  const int small_devices = std::max(1, std::min(16, large_devices / 16));
  check_scale_fits(large_devices, model::host_budget_bytes(model::MachineSpec{}));
  BenchProgress progress(8);
  const auto scale_stage = [](const char* which, int devices) {
    return std::string(which) + " scale run: " + std::to_string(devices) + " devices x 4 cores, " +
           std::to_string(estimate_scale_run(devices).steps) + " steps an execution";
  };

  // First, while the process is small: the memory of the large run is its rise of the peak.
  progress.stage(scale_stage("large", large_devices));
  const ScaleRun large = scale_run(gather, collective_config(large_devices, 4, true), scale_tiles(), 0);
  progress.stage(scale_stage("small", small_devices));
  const ScaleRun small = scale_run(gather, collective_config(small_devices, 4, true), scale_tiles(), 0.5);

  progress.stage("fiber switches");
  const double switching = switch_ns(options.quick ? 200'000 : 2'000'000);
  progress.stage("scheduler steps (races off, on, Boost.Fiber)");
  const std::int64_t iterations = options.quick ? 500 : 5000;
  const double step = step_ns(operation_mix_config(false), iterations, effort);
  const double step_races = step_ns(operation_mix_config(true), iterations, effort);
  const double step_boost_fiber =
      step_ns(operation_mix_config(false, scheduler::FiberBackend::boost_fiber), iterations, effort);
  out["switch_ns"] = rounded(switching, 1);
  out["step_ns"] = rounded(step, 1);
  out["step_ns_races"] = rounded(step_races, 1);
  out["step_ns_over_switch_ns"] = rounded(step / switching, 2);
  out["step_ns_races_over_step_ns"] = rounded(step_races / step, 2);
  out["step_ns_boost_fiber"] = rounded(step_boost_fiber, 1);
  out["step_ns_boost_fiber_over_step_ns"] = rounded(step_boost_fiber / step, 2);

  progress.stage("collectives on 8 devices, a Pallas matmul");
  const int executions = 200 * effort;
  const ExecutionRate gather_run = execution_rate(gather, collective_config(8, 1, true), executions);
  const double gather_rate = gather_run.executions_per_second;
  const ExecutionRate reduce_run = execution_rate(reduce, collective_config(8, 1, true), executions);
  const double reduce_rate = reduce_run.executions_per_second;
  const double reduce_off = execution_rate(reduce, collective_config(8, 1, false), executions).executions_per_second;
  out["ring_all_gather_8_executions_per_s"] = std::round(gather_rate);
  // A whole execution against its steps: setup, check and teardown are what the ratio adds.
  out["ring_all_gather_8_ns_per_step"] = rounded(gather_run.ns_per_step, 1);
  out["ring_all_gather_8_ns_per_step_over_step_ns_races"] = rounded(gather_run.ns_per_step / step_races, 2);
  out["ring_all_reduce_8_executions_per_s"] = std::round(reduce_rate);
  out["ring_all_reduce_8_races_off_executions_per_s"] = std::round(reduce_off);
  out["races_off_over_races_on"] = rounded(reduce_off / reduce_rate, 2);

  // The same ring all-gather written in Python with Pallas' names (docs/python.md): its cores
  // run Python between their visible operations; its DMA phases are the engine's own.
  if (options.python_gather != nullptr) {
    const ExecutionRate python = execution_rate(*options.python_gather, collective_config(8, 1, true), executions / 4);
    out["python_ring_all_gather_8_executions_per_s"] = std::round(python.executions_per_second);
    out["python_ring_all_gather_8_ns_per_step"] = rounded(python.ns_per_step, 1);
    out["python_over_cpp_ring_all_gather_8_ns_per_step"] = rounded(python.ns_per_step / gather_run.ns_per_step, 2);
    // The reference runs the same kernel's operations on interpret mode's machine model, one
    // thread per device: the ratio is weft's Python form against it, both checked executions.
    if (options.reference_rate) {
      const double reference = options.reference_rate(std::max(4, executions / 40));
      out["reference_ring_all_gather_8_executions_per_s"] = rounded(reference, 1);
      out["python_over_reference_ring_all_gather_8_executions_per_s"] =
          rounded(python.executions_per_second / reference, 1);
    } else {
      out["reference_figures"] = options.reference_absent;
    }
  } else {
    out["python_figures"] = options.python_absent;
  }

  // A Pallas launch (its pipeline's DMAs and waits are visible operations like a hand-written
  // kernel's) against a hand-written collective, per step of whole executions.
  const ExecutionRate matmul =
      execution_rate(scenario(registry, "pallas_matmul"), collective_config(1, 2, true), executions);
  out["pallas_matmul_executions_per_s"] = std::round(matmul.executions_per_second);
  out["pallas_matmul_ns_per_step"] = rounded(matmul.ns_per_step, 1);
  out["ring_all_reduce_8_ns_per_step"] = rounded(reduce_run.ns_per_step, 1);
  out["pallas_matmul_over_hand_written_ns_per_step"] = rounded(matmul.ns_per_step / reduce_run.ns_per_step, 2);

  progress.stage("explore lastzero(4), a 3-device ring all-reduce, a 4-device ring all-gather (1 and 2 jobs)");
  const ExploreRate lastzero = explore_rate(scenario(registry, "lastzero"), explore_config(5), 28, 2 * effort);
  out["explore_lastzero4_runs_per_s"] = std::round(lastzero.runs_per_second);
  out["explore_lastzero4_runs_per_trace"] = rounded(lastzero.runs_per_trace, 2);
  // The explorer's cost per step of the runs it executes (its race analysis included), against
  // a plain step: 34 classes of some hundred steps each, races off.
  const ExploreRate reduce_explore = explore_rate(reduce, collective_config(3, 1, false), 34, 10 * effort);
  out["explore_ring_all_reduce_3_ns_per_step"] = rounded(reduce_explore.ns_per_step, 1);
  out["explore_ring_all_reduce_3_runs_per_trace"] = rounded(reduce_explore.runs_per_trace, 2);
  out["explore_ns_per_step_over_step_ns"] = rounded(reduce_explore.ns_per_step / step, 2);
  // The same steps without the explorer (random schedules, same configuration): what the
  // explorer itself adds, apart from what an execution of this kernel costs.
  const ExecutionRate reduce_plain = execution_rate(reduce, collective_config(3, 1, false), executions);
  out["ring_all_reduce_3_ns_per_step"] = rounded(reduce_plain.ns_per_step, 1);
  out["explore_over_execution_ns_per_step"] = rounded(reduce_explore.ns_per_step / reduce_plain.ns_per_step, 2);

  // The same exploration by one thread and by two sharing one tree: the 4-device ring all-gather,
  // races off, 3,015 classes, exhausted each time (both run the same classes).
  const ExploreJobs explore_both = explore_jobs(gather, collective_config(4, 1, false), options.quick ? 1 : 4);
  out["explore_jobs1_runs_per_s"] = std::round(explore_both.jobs1_runs_per_second);
  out["explore_jobs2_runs_per_s"] = std::round(explore_both.jobs2_runs_per_second);
  out["explore_jobs2_over_jobs1"] = rounded(explore_both.jobs2_runs_per_second / explore_both.jobs1_runs_per_second, 2);

  // Explore's cost per step as a run grows long (run_lengths.hpp): the long body at 100 to
  // 100,000 steps a run, and as a program of many launches (110 quick, 1,100 otherwise), each
  // against plain executions of the same kernel.
  progress.stage("explore against plain executions, runs of 100 to 100,000 steps, and of many launches");
  run_length_figures(registry, options.quick ? 200'000 : 2'000'000, options.quick ? 110 : 1'100,
                     options.quick ? 2.0 : 10.0, out);

  progress.stage("sweeps with 1 and 2 jobs");
  const std::uint64_t seeds = 400 * static_cast<std::uint64_t>(effort);
  const double jobs1 = sweep_executions_per_second(reduce, collective_config(8, 1, true), 1, seeds);
  const double jobs2 = sweep_executions_per_second(reduce, collective_config(8, 1, true), 2, seeds);
  out["sweep_jobs1_executions_per_s"] = std::round(jobs1);
  out["sweep_jobs2_executions_per_s"] = std::round(jobs2);
  out["sweep_jobs2_over_jobs1"] = rounded(jobs2 / jobs1, 2);

  out["scale_large_cores"] = large.cores;
  out["scale_large_steps"] = large.steps;
  out["scale_large_verdict"] = large.verdict;
  out["scale_large_ns_per_step"] = rounded(large.ns_per_step, 1);
  out["scale_small_cores"] = small.cores;
  out["scale_small_ns_per_step"] = rounded(small.ns_per_step, 1);
  out["scale_large_over_small_ns_per_step"] = rounded(large.ns_per_step / small.ns_per_step, 2);
  out["scale_large_seconds_per_execution"] = rounded(large.ns_per_step * static_cast<double>(large.steps) / 1e9, 1);
  out["peak_bytes_per_core"] = std::round(large.peak_bytes_per_core);
  return out;
}

}  // namespace weft::bench
