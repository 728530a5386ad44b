#include "sim/cli/commands.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "scheduler/schedule.hpp"
#include "sim/cli/report.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string> toml_files(const std::filesystem::path& folder) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

SeedRange parse_seed_range(const std::string& text) {
  const auto dots = text.find("..");
  const auto first = dots == std::string::npos ? std::nullopt : parse_u64(std::string_view(text).substr(0, dots));
  const auto last = dots == std::string::npos ? std::nullopt : parse_u64(std::string_view(text).substr(dots + 2));
  if (!first || !last || *first > *last)
    throw ConfigError("--seeds", 0, 0, "seeds", "'" + text + "' is not a seed range A..B with A <= B (both inclusive)");
  return {*first, *last};
}

int command_list(const ScenarioRegistry& registry) {
  std::size_t width = 0;
  for (const auto& scenario : registry) width = std::max(width, scenario.name.size());
  for (const auto& scenario : registry)
    std::cout << "scenario  " << scenario.name << std::string(width - scenario.name.size() + 2, ' ')
              << scenario.summary << "\n";
  for (const auto& file : toml_files("scenarios")) std::cout << "file      " << file << "\n";
  for (const auto& file : toml_files("configs")) std::cout << "config    " << file << "\n";
  return 0;
}

int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed) {
  const std::uint64_t chosen = seed.value_or(request.config.scheduler.seed);
  Simulation simulation(request.config, *request.scenario, request.params);
  const ExecutionResult result = simulation.run_seed(chosen);
  std::cout << format_report(request, result, program, chosen);
  return result.verdict == request.expect ? 0 : 1;
}

int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule) {
  const scheduler::Schedule decoded = scheduler::decode(schedule);
  Simulation simulation(request.config, *request.scenario, request.params);
  const ExecutionResult result = simulation.run_schedule(decoded);
  std::cout << format_report(request, result, program, std::nullopt);
  return result.verdict == request.expect ? 0 : 1;
}

int command_sweep(const Request& request, const std::string& program, SeedRange seeds, bool keep_going) {
  Simulation simulation(request.config, *request.scenario, request.params);
  const auto started = std::chrono::steady_clock::now();  // for the executions/s figure only
  std::uint64_t runs = 0, failures = 0;
  for (std::uint64_t seed = seeds.first;; ++seed) {
    const ExecutionResult result = simulation.run_seed(seed);
    ++runs;
    if (result.verdict != request.expect) {
      ++failures;
      std::cout << format_report(request, result, program, seed) << "\n";
      if (!keep_going) break;
    }
    if (seed == seeds.last) break;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "sweep: " << request.scenario->name << ", " << runs << " executions, " << failures
            << " not as expected (" << model::to_string(request.expect) << "), "
            << static_cast<std::uint64_t>(runs / std::max(seconds, 1e-9)) << " executions/s\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace weft::sim
