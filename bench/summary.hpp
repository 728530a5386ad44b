#pragma once
// `weft bench`: every figure of docs/performance.md measured in one run and printed as one JSON
// object, ratios included (only figures of the same run compare). `quick` shrinks every
// workload (the CI smoke test: the figures are then too noisy to read).

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "sim/api/scenario.hpp"

namespace weft::bench {

struct SummaryOptions {
  bool quick = false;
  int scale_devices = 256;  // the large ring all-gather: devices x 4 cores (races on)
};

nlohmann::ordered_json summary(const sim::ScenarioRegistry& registry, const SummaryOptions& options);

}  // namespace weft::bench
