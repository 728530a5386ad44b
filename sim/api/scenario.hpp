#pragma once
// A scenario: host setup, the kernel every core runs, the host's check of the outputs, named
// parameters with their defaults, and the verdict it expects. Built-in scenarios are listed by
// one explicit registry function (scenarios/registry.hpp); users may add their own.

#include <functional>
#include <string>
#include <vector>

#include "model/verdict.hpp"
#include "sim/api/core.hpp"
#include "sim/api/host.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

struct ScenarioDefinition {
  std::string name;
  std::string summary;  // one line, for `weft list`
  Params params;        // every parameter the kernel reads, with its default
  model::Verdict expect = model::Verdict::ok;
  std::function<void(Host&)> setup;
  std::function<void(Core&)> kernel;
  // Returns an empty string when the outputs are right, else what is wrong (first mismatch).
  std::function<std::string(const Host&)> check;
};

using ScenarioRegistry = std::vector<ScenarioDefinition>;

const ScenarioDefinition* find_scenario(const ScenarioRegistry& registry, std::string_view name);

}  // namespace weft::sim
