#include "sim/plugin/catalog.hpp"

#include <algorithm>

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

// Why a scenario named `name` from `origin` cannot be added: one from `first` has the name.
std::string name_taken(const std::string& name, const std::string& first, const std::string& origin) {
  const std::string quoted = "'" + name + "'";
  if (first == origin)
    return origin == builtin_origin ? "two scenarios are named " + quoted : "defines scenario " + quoted + " twice";
  if (first == builtin_origin) return "scenario " + quoted + " has the name of a built-in scenario";
  return "scenario " + quoted + " is also defined by " + first;
}

}  // namespace

void Catalog::add_builtin(ScenarioRegistry scenarios) { add(std::move(scenarios), builtin_origin); }

void Catalog::load(const std::filesystem::path& library) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(library, error);
  if (!error && std::find(loaded_.begin(), loaded_.end(), canonical) != loaded_.end()) return;
  if (library.extension() == ".py") {
    if (!scripts_)
      throw ConfigError(library.string(), 0, 0, "",
                        "a Python script: this program runs no Python (the weft executable and `python3 -m weft` do: "
                        "docs/python.md)");
    loaded_.push_back(canonical);
    add(scripts_(library), library.string());
    return;
  }
  KernelLibrary& loaded = libraries_.emplace_back(library);
  loaded_.push_back(canonical);
  add(loaded.scenarios(), library.string());
}

void Catalog::add(ScenarioRegistry scenarios, const std::string& origin) {
  for (auto& scenario : scenarios) {
    const auto taken = std::find_if(scenarios_.begin(), scenarios_.end(),
                                    [&](const ScenarioDefinition& other) { return other.name == scenario.name; });
    if (taken != scenarios_.end())
      throw ConfigError(origin, 0, 0, "", name_taken(scenario.name, origins_[taken - scenarios_.begin()], origin));
    scenarios_.push_back(std::move(scenario));
    origins_.push_back(origin);
  }
}

}  // namespace weft::sim
