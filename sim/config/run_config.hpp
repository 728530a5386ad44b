#pragma once
// The whole precedence chain of one run, in one call:
//   built-in defaults < embedded configs/default.toml < config file < the scenario definition's
//   own settings (ScenarioDefinition::settings) < scenario file < --set.

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "sim/config/config.hpp"
#include "sim/config/params.hpp"
#include "sim/config/scenario_file.hpp"

namespace weft::sim {

// `config_file`, when given (weft run --config F), replaces the scenario's own `config`.
// `params` holds the kernel's parameters with their defaults on entry; the scenario's [params]
// and then the params.NAME assignments are applied to it. `assignments` are --set arguments,
// applied in order.
Config load_run_config(const ScenarioFile& scenario, const std::optional<std::filesystem::path>& config_file,
                       std::span<const std::string> assignments, Params& params,
                       std::span<const std::string> definition_settings = {});

}  // namespace weft::sim
