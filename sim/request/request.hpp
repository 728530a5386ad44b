#pragma once
// What one command line asks for, resolved: which scenario (a scenario TOML path or a
// registered name), its configuration after every layer, its parameters and the verdict it is
// expected to give. Keeps the arguments as typed, to print commands that reproduce a finding.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/api/scenario.hpp"

namespace weft::sim {

struct RequestArguments {
  std::string scenario{};                 // as typed: a path to a .toml, or a registered name
  std::optional<std::string> config{};    // --config F
  std::vector<std::string> sets{};        // --set k=v, in order
  std::optional<std::string> expect{};    // --expect VERDICT
  std::optional<double> watchdog{};       // --watchdog SECONDS (scheduler.watchdog_seconds)
  std::optional<std::string> strategy{};  // --strategy NAME (scheduler.strategy, applied after the --set values)
  std::vector<std::string> kernels{};     // --kernels F: kernel libraries to load, in order
};

// A file the request was read from, and what it is to the request ("scenario file").
struct InputFile {
  std::string role{};
  std::filesystem::path path{};
};

struct Request {
  RequestArguments arguments{};
  const ScenarioDefinition* scenario = nullptr;
  Config config{};
  Params params{};
  model::Verdict expect = model::Verdict::ok;
  // The scenario file's `found_within` (unless --expect overrides its verdict): `expect` is a bug
  // only some schedules reach, within that many seeds from 0; an ok execution is as expected too.
  std::optional<std::uint64_t> found_within{};
  std::string description{};  // the scenario file's `description`, or empty

  // Whether one execution's verdict is as expected.
  bool accepts(model::Verdict verdict) const {
    return verdict == expect || (found_within && verdict == model::Verdict::ok);
  }
  std::vector<InputFile> inputs{};  // the scenario file and the config file, each when there is one
};

// A scenario named in a Python script (python/): `PATH.py::NAME`, registered as `STEM::NAME`
// (no built-in name has "::"), or `PATH.py` for a script that is one scenario, named `STEM`.
struct ScriptScenario {
  std::filesystem::path path{};
  std::string name{};
};
std::optional<ScriptScenario> script_of(const std::string& scenario);

// Throws ConfigError for anything wrong in the files, the --set values, the scenario's name or
// the expected verdict.
Request resolve_request(const RequestArguments& arguments, const ScenarioRegistry& registry);

// The kernel libraries the request names: each --kernels file, then the scenario file's
// `kernels` key (relative to the scenario file), or the script a `PATH.py::NAME` names. Throws ConfigError for a bad
// scenario file.
std::vector<std::filesystem::path> kernel_libraries(const RequestArguments& arguments);

// The options that reproduce this request ("SCENARIO [--config F] [--set k=v]... [--kernels F]..."),
// each quoted for a POSIX shell where needed.
std::string request_options(const RequestArguments& arguments);
std::string shell_quote(const std::string& word);

}  // namespace weft::sim
