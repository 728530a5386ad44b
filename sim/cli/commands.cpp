#include "sim/cli/commands.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>

#include "scheduler/schedule.hpp"
#include "scheduler/strategies/replay.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/schedule_argument.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"
#include "sim/explain/explain.hpp"

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

// The explanation of `result`: from the recording, when the execution was recorded anyway.
Explanation explained(Simulation& simulation, const ExecutionResult& result,
                      const std::optional<TraceRecorder>& recorder) {
  if (recorder) return explain_recorded(*recorder, result, accumulating_clocks(simulation.config()));
  return explain(simulation, result);
}

}  // namespace

int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed,
                const TraceFiles& traces) {
  const std::uint64_t chosen = seed.value_or(request.config.scheduler.seed);
  Simulation simulation(request.config, *request.scenario, request.params);
  std::optional<TraceRecorder> recorder = recorder_for(request, traces);
  const ExecutionResult result = simulation.run_seed(chosen, recorder ? &*recorder : nullptr);
  const std::string word =
      ScheduleFiles(request, traces.first_file()).argument(result.schedule, "seed-" + std::to_string(chosen)).word();
  const Explanation explanation = explained(simulation, result, recorder);
  write_record(std::cout, format_report(request, result, program, chosen, word, explanation));
  if (recorder)
    write_traces(traces, *recorder, trace_header(request, result, program, chosen, word, explanation), std::cout);
  return request.accepts(result.verdict) ? 0 : 1;
}

int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule_word,
                            const TraceFiles& traces) {
  const scheduler::Schedule decoded = scheduler::decode(read_schedule_word(schedule_word));
  Simulation simulation(request.config, *request.scenario, request.params);
  std::optional<TraceRecorder> recorder = recorder_for(request, traces);
  const ExecutionResult result = simulation.run_schedule(decoded, recorder ? &*recorder : nullptr);
  // Steps the run never took would make "replayed schedule" claim more than happened.
  if (result.steps < decoded.size())
    throw scheduler::ScheduleDiverged("the schedule has " + std::to_string(decoded.size()) +
                                      " steps, but the execution ended after " + std::to_string(result.steps) +
                                      " (as " + std::string(model::to_string(result.verdict)) +
                                      "): it is not a schedule of this execution");
  // The schedule replayed whole is the one given: its reproduce line names the same file.
  const bool same = schedule_word.starts_with("@") && result.schedule == decoded;
  const std::string word =
      same ? shell_quote(schedule_word)
           : ScheduleFiles(request, traces.first_file()).argument(result.schedule, "replayed").word();
  const Explanation explanation = explained(simulation, result, recorder);
  write_record(std::cout, format_report(request, result, program, std::nullopt, word, explanation));
  if (recorder)
    write_traces(traces, *recorder, trace_header(request, result, program, std::nullopt, word, explanation), std::cout);
  return request.accepts(result.verdict) ? 0 : 1;
}

}  // namespace weft::sim
