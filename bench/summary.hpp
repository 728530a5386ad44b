#pragma once
// `weft bench`: every figure of docs/performance.md measured in one run and printed as one JSON
// object, ratios included (only figures of the same run compare). `quick` shrinks every
// workload but a scale run that is asked for (the CI smoke test: the figures are then too noisy
// to read).

#include <iosfwd>
#include <optional>

#include <nlohmann/json.hpp>

#include "sim/api/scenario.hpp"

namespace weft::bench {

struct SummaryOptions {
  bool quick = false;
  // The large ring all-gather's devices (x 4 cores, races on); by default 256, 32 when quick.
  std::optional<int> scale_devices;
};

// Throws ConfigError (exit 2) before measuring anything when the large scale run would not fit
// in the host memory budget (scale_estimate.hpp). On a terminal, a progress line on stderr.
nlohmann::ordered_json summary(const sim::ScenarioRegistry& registry, const SummaryOptions& options);

}  // namespace weft::bench
