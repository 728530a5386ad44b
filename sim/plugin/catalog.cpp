#include "sim/plugin/catalog.hpp"

#include <algorithm>

#include "sim/config/config_error.hpp"

namespace weft::sim {

void Catalog::add_builtin(ScenarioRegistry scenarios) { add(std::move(scenarios), builtin_origin); }

void Catalog::load(const std::filesystem::path& library) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(library, error);
  if (!error && std::find(loaded_.begin(), loaded_.end(), canonical) != loaded_.end()) return;
  KernelLibrary& loaded = libraries_.emplace_back(library);
  loaded_.push_back(canonical);
  add(loaded.scenarios(), library.string());
}

void Catalog::add(ScenarioRegistry scenarios, const std::string& origin) {
  for (auto& scenario : scenarios) {
    const auto taken = std::find_if(scenarios_.begin(), scenarios_.end(),
                                    [&](const ScenarioDefinition& other) { return other.name == scenario.name; });
    if (taken != scenarios_.end()) {
      const std::string& first = origins_[taken - scenarios_.begin()];
      throw ConfigError(origin, 0, 0, "",
                        first == origin       ? "defines scenario '" + scenario.name + "' twice"
                        : first == builtin_origin ? "scenario '" + scenario.name + "' has the name of a built-in scenario"
                                              : "scenario '" + scenario.name + "' is also defined by " + first);
    }
    scenarios_.push_back(std::move(scenario));
    origins_.push_back(origin);
  }
}

}  // namespace weft::sim
