#include "sim/api/scenario.hpp"

namespace weft::sim {

const ScenarioDefinition* find_scenario(const ScenarioRegistry& registry, std::string_view name) {
  for (const auto& scenario : registry)
    if (scenario.name == name) return &scenario;
  return nullptr;
}

const ParamValue& Host::param_value(std::string_view name) const {
  const auto found = params_.find(name);
  if (found == params_.end())
    throw std::invalid_argument("the host reads an undeclared parameter '" + std::string(name) + "'");
  return found->second;
}

std::int64_t Host::param(std::string_view name) const {
  try {
    return param_value(name).as_integer();
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("the host reads parameter '" + std::string(name) + "': " + error.what());
  }
}

}  // namespace weft::sim
