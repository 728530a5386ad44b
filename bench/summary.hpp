#pragma once
// `weft bench`: every figure of docs/performance.md measured in one run and printed as one JSON
// object, ratios included (only figures of the same run compare). `quick` shrinks every
// workload but a scale run that is asked for (the CI smoke test: the figures are then too noisy
// to read).

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/api/scenario.hpp"

namespace weft::bench {

struct SummaryOptions {
  bool quick = false;
  // The large ring all-gather's devices (x 4 cores, races on); by default 256, 32 when quick.
  std::optional<int> scale_devices;
  // The 8-device ring all-gather written in Python (python/weft/_bench_kernels.py), measured
  // beside the C++ one when given; else `python_absent` says why there is no Python figure.
  const sim::ScenarioDefinition* python_gather = nullptr;
  std::string python_absent;
  // Interpret mode's executions per second of the same Python kernel on its own machine model
  // (app/main.hpp's PythonBench), measured beside it when given; else `reference_absent` says how.
  std::function<double(int executions)> reference_rate;
  std::string reference_absent;
};

// Throws ConfigError (exit 2) before measuring anything when the large scale run would not fit
// in the host memory budget (scale_estimate.hpp). On a terminal, a progress line on stderr.
nlohmann::ordered_json summary(const sim::ScenarioRegistry& registry, const SummaryOptions& options);

}  // namespace weft::bench
