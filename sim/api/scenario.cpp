#include "sim/api/scenario.hpp"

namespace weft::sim {

const ScenarioDefinition* find_scenario(const ScenarioRegistry& registry, std::string_view name) {
  for (const auto& scenario : registry)
    if (scenario.name == name) return &scenario;
  return nullptr;
}

std::int64_t Host::param(std::string_view name) const {
  const auto found = params_.find(name);
  if (found == params_.end()) throw std::invalid_argument("the host reads an undeclared parameter '" + std::string(name) + "'");
  return found->second;
}

}  // namespace weft::sim
