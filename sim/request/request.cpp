#include "sim/request/request.hpp"

#include <filesystem>
#include <sstream>

#include "sim/config/config_error.hpp"
#include "sim/config/run_config.hpp"
#include "sim/config/scenario_file.hpp"

namespace weft::sim {
namespace {

bool names_a_file(const std::string& scenario) {
  return !script_of(scenario) && (scenario.ends_with(".toml") || scenario.find('/') != std::string::npos);
}

std::string known_names(const ScenarioRegistry& registry) {
  std::string names;
  for (const auto& scenario : registry) names += (names.empty() ? "" : ", ") + scenario.name;
  return names;
}

}  // namespace

std::optional<ScriptScenario> script_of(const std::string& scenario) {
  const auto separator = scenario.rfind("::");
  const std::string path = separator == std::string::npos ? scenario : scenario.substr(0, separator);
  if (!path.ends_with(".py")) return std::nullopt;
  const std::string stem = std::filesystem::path(path).stem().string();
  if (separator != std::string::npos) return ScriptScenario{path, stem + "::" + scenario.substr(separator + 2)};
  return ScriptScenario{path, stem};
}

Request resolve_request(const RequestArguments& arguments, const ScenarioRegistry& registry) {
  Request request;
  request.arguments = arguments;
  ScenarioFile file;
  if (names_a_file(arguments.scenario)) {
    file = read_scenario_file(arguments.scenario);
  } else if (const auto script = script_of(arguments.scenario)) {
    file.kernel = script->name;
  } else {
    file.kernel = arguments.scenario;
  }
  request.scenario = find_scenario(registry, file.kernel);
  if (request.scenario == nullptr) {
    const bool from_file = !file.path.empty();
    throw ConfigError(from_file ? file.path.string() : "<command line>", from_file ? 1 : 0, from_file ? 1 : 0, "kernel",
                      "no scenario named '" + file.kernel + "' (known: " + known_names(registry) + ")");
  }
  request.params = request.scenario->params;
  std::optional<std::filesystem::path> config_file;
  if (arguments.config) config_file = *arguments.config;
  std::vector<std::string> sets = arguments.sets;
  if (arguments.strategy) sets.push_back("scheduler.strategy=" + *arguments.strategy);
  request.config = load_run_config(file, config_file, sets, request.params, request.scenario->settings);
  if (!file.path.empty()) request.inputs.push_back({"scenario file", file.path});
  if (const auto& config = config_file ? config_file : file.config) request.inputs.push_back({"config file", *config});
  if (arguments.watchdog) request.config.scheduler.watchdog_seconds = *arguments.watchdog;
  request.expect = file.expect.value_or(request.scenario->expect);
  if (file.found_within && !arguments.expect) request.found_within = static_cast<std::uint64_t>(*file.found_within);
  request.description = file.description;
  if (arguments.expect) {
    const auto verdict = model::parse_verdict(*arguments.expect);
    if (!verdict)
      throw ConfigError(
          "--expect", 0, 0, "expect",
          "unknown verdict '" + *arguments.expect + "' (expected one of " + std::string(model::verdict_names()) + ")");
    request.expect = *verdict;
  }
  return request;
}

std::vector<std::filesystem::path> kernel_libraries(const RequestArguments& arguments) {
  std::vector<std::filesystem::path> libraries(arguments.kernels.begin(), arguments.kernels.end());
  if (names_a_file(arguments.scenario)) {
    if (auto named = read_scenario_file(arguments.scenario).kernels) libraries.push_back(std::move(*named));
  } else if (const auto script = script_of(arguments.scenario)) {
    libraries.push_back(script->path);
  }
  return libraries;
}

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-.,:/=+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string request_options(const RequestArguments& arguments) {
  std::string text = shell_quote(arguments.scenario);
  if (arguments.config) text += " --config " + shell_quote(*arguments.config);
  for (const auto& set : arguments.sets) text += " --set " + shell_quote(set);
  if (arguments.strategy) text += " --strategy " + shell_quote(*arguments.strategy);
  for (const auto& library : arguments.kernels) text += " --kernels " + shell_quote(library);
  if (arguments.expect) text += " --expect " + shell_quote(*arguments.expect);
  if (arguments.watchdog) {
    std::ostringstream seconds;
    seconds << *arguments.watchdog;
    text += " --watchdog " + seconds.str();
  }
  return text;
}

}  // namespace weft::sim
