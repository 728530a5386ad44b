#include "sim/cli/commands.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>

#include "scheduler/schedule.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/engine/shrinker.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

std::vector<std::string> toml_files(const std::filesystem::path& folder) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int command_list(const Catalog& catalog) {
  const ScenarioRegistry& scenarios = catalog.scenarios();
  std::size_t width = 0, origin_width = 0;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    width = std::max(width, scenarios[i].name.size());
    origin_width = std::max(origin_width, catalog.origin(i).size());
  }
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    std::cout << "scenario  " << scenarios[i].name << std::string(width - scenarios[i].name.size() + 2, ' ')
              << catalog.origin(i) << std::string(origin_width - catalog.origin(i).size() + 2, ' ')
              << scenarios[i].summary << "\n";
  for (const auto& file : toml_files("scenarios")) std::cout << "file      " << file << "\n";
  for (const auto& file : toml_files("configs")) std::cout << "config    " << file << "\n";
  return 0;
}

namespace {

// A recorder for the execution when trace files are asked for, else none.
std::optional<TraceRecorder> recorder_for(const Request& request, const TraceFiles& traces) {
  if (!traces.any()) return std::nullopt;
  return TraceRecorder(request.config.machine.devices(), request.config.machine.cores_per_device);
}

}  // namespace

int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed,
                const TraceFiles& traces) {
  const std::uint64_t chosen = seed.value_or(request.config.scheduler.seed);
  Simulation simulation(request.config, *request.scenario, request.params);
  std::optional<TraceRecorder> recorder = recorder_for(request, traces);
  const ExecutionResult result = simulation.run_seed(chosen, recorder ? &*recorder : nullptr);
  write_record(std::cout, format_report(request, result, program, chosen));
  if (recorder) write_traces(traces, *recorder, trace_header(request, result, program, chosen), std::cout);
  return result.verdict == request.expect ? 0 : 1;
}

int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule,
                            const TraceFiles& traces) {
  const scheduler::Schedule decoded = scheduler::decode(schedule);
  Simulation simulation(request.config, *request.scenario, request.params);
  std::optional<TraceRecorder> recorder = recorder_for(request, traces);
  const ExecutionResult result = simulation.run_schedule(decoded, recorder ? &*recorder : nullptr);
  write_record(std::cout, format_report(request, result, program, std::nullopt));
  if (recorder) write_traces(traces, *recorder, trace_header(request, result, program, std::nullopt), std::cout);
  return result.verdict == request.expect ? 0 : 1;
}

namespace {

void print_shrunk(const Request& request, const std::string& program, const SeedOutcome& failure, std::size_t budget) {
  Simulation simulation(request.config, *request.scenario, request.params);
  const ShrinkResult shrunk = Shrinker(simulation, {budget}).shrink(failure.result);
  std::cout << "shrunk seed " << failure.seed << ": " << shrunk.preemptions_before << " -> " << shrunk.preemptions_after
            << " preemptions, " << shrunk.steps_before << " -> " << shrunk.result.steps << " steps ("
            << shrunk.executions << " re-executions), verdict " << model::to_string(shrunk.result.verdict) << "\n  "
            << replay_by_schedule(request, program, shrunk.result.schedule) << "\n\n";
}

}  // namespace

int command_sweep(const Request& request, const std::string& program, const SweepOptions& options,
                  const SweepFiles& files) {
  std::optional<JsonLinesFile> jsonl;
  if (files.jsonl) jsonl.emplace(*files.jsonl);
  std::vector<SeedOutcome> failures;
  ProgressLine progress(shard_seed_count(options));
  SweepListener listener;
  listener.failure = [&](const SeedOutcome& outcome) {
    progress.clear();
    if (jsonl) jsonl->write(failure_json(request, outcome, program));
    std::string report = format_report(request, outcome.result, program, outcome.seed);
    if (!outcome.nondeterminism.empty()) report += "NOT DETERMINISTIC: " + outcome.nondeterminism + "\n";
    write_record(std::cout, report + "\n");
    failures.push_back(outcome);
  };
  listener.progress = [&](std::uint64_t done, std::uint64_t failed) { progress.update(done, failed); };
  const SweepSummary summary = run_sweep(request, options, listener);
  progress.clear();
  if (jsonl) {
    jsonl->write(summary_json(request, options, summary));
    jsonl->commit();
  }
  if (files.junit) write_junit(*files.junit, request, summary, failures, program);
  if (!failures.empty() && files.shrink_budget > 0) print_shrunk(request, program, failures.front(), files.shrink_budget);

  std::cout << "sweep: " << request.scenario->name << ", seeds " << options.seeds.first << ".." << options.seeds.last;
  if (options.shard.count > 1) std::cout << " shard " << options.shard.index << "/" << options.shard.count;
  std::cout << ": " << summary.executions << " executions, " << summary.failures << " not as expected ("
            << model::to_string(request.expect) << "), "
            << static_cast<std::uint64_t>(summary.executions / std::max(summary.seconds, 1e-9)) << " executions/s\n";
  if (summary.next_seed && summary.failures == 0) {
    std::cout << "sweep: stopped early (" << (summary.interrupted ? "interrupted" : "time budget")
              << "); seeds from " << *summary.next_seed << " on did not run\n";
  }
  return summary.failures == 0 ? 0 : 1;
}

}  // namespace weft::sim
