#pragma once
// A scenario file: which kernel to run, with which config and parameters, and the verdict it
// should yield. It may also hold config sections ([topology], [dma], ...), which go on top of
// its config file, and a [params] table for the kernel.
//
//   kernel = "ring_all_gather"
//   config = "../configs/ring8.toml"   # relative to this file's folder
//   kernels = "build/libmine.so"       # a kernel library defining the kernel (relative, too)
//   expect = "ok"
//   found_within = 1000                # a bug only some schedules reach (see below)
//   [params]
//   rows = 8

#include <filesystem>
#include <optional>
#include <string>

#include "model/verdict.hpp"
#include "sim/config/config.hpp"
#include "sim/config/config_error.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

struct ScenarioFile {
  std::filesystem::path path;
  std::string kernel;                            // required key `kernel`
  std::optional<std::filesystem::path> config;   // key `config`, resolved against path's folder
  std::optional<std::filesystem::path> kernels;  // key `kernels`, resolved against path's folder
  std::optional<model::Verdict> expect;          // key `expect`
  // key `found_within`: the expected verdict is a bug only some schedules reach; a sweep of the
  // seeds 0..N-1 reaches it at least once, and every other execution is ok (docs/configuration.md).
  std::optional<std::int64_t> found_within;
  std::string description;  // key `description`; empty when absent
  std::string text;         // the file's text: its sections and [params] are applied from it later
};

// Reads and checks the whole file: its own keys, the types and ranges of its config sections
// and the types of its [params] (their names need the kernel, see apply_scenario_params).
ScenarioFile read_scenario_file(const std::filesystem::path& path);
// The same for a text said to come from `path` (for its error messages and its `config`).
ScenarioFile parse_scenario_text(std::string text, const std::filesystem::path& path);

// Applies the scenario's config sections on top of `config` (left as it was on error).
void apply_scenario_overrides(Config& config, const ScenarioFile& scenario);

// Applies [params]: `params` holds every parameter the kernel knows, with its default; an
// unknown name is an error that lists the known ones. Values are integers (TOML booleans are
// taken as 0 and 1). `params` is left as it was on error.
void apply_scenario_params(Params& params, const ScenarioFile& scenario);

}  // namespace weft::sim
