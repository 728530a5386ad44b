#include "sim/config/run_config.hpp"

#include <utility>

#include "sim/config/config_loader.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {

Config load_run_config(const ScenarioFile& scenario, const std::optional<std::filesystem::path>& config_file,
                       std::span<const std::string> assignments, Params& params,
                       std::span<const std::string> definition_settings) {
  Config config = default_config();
  Params layered = params;
  if (const auto& file = config_file ? config_file : scenario.config) apply_config_file(config, *file);
  for (const std::string& setting : definition_settings) apply_set(config, layered, setting);
  apply_scenario_overrides(config, scenario);
  apply_scenario_params(layered, scenario);
  for (const std::string& assignment : assignments) apply_set(config, layered, assignment);
  params = std::move(layered);
  return config;
}

}  // namespace weft::sim
