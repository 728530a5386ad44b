#include "bench/scale_estimate.hpp"

#include <cstdio>
#include <string>

#include "sim/config/config_error.hpp"

namespace weft::bench {
namespace {

constexpr int cores_per_device = 4;
constexpr std::int64_t bytes_per_core_squared = 300;
constexpr std::int64_t bytes_per_core = 64 * 1024;

std::string gigabytes(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

ScaleEstimate estimate_scale_run(int devices) {
  ScaleEstimate estimate;
  estimate.cores = devices * cores_per_device;
  const std::int64_t cores = estimate.cores;
  estimate.steps = 24 * static_cast<std::uint64_t>(devices) * static_cast<std::uint64_t>(devices);
  estimate.bytes = bytes_per_core_squared * cores * cores + bytes_per_core * cores;
  return estimate;
}

void check_scale_fits(int devices, std::int64_t budget_bytes) {
  const ScaleEstimate estimate = estimate_scale_run(devices);
  if (estimate.bytes <= budget_bytes) return;
  int fits = devices;
  while (fits > 1 && estimate_scale_run(fits).bytes > budget_bytes) --fits;
  throw sim::ConfigError("--scale-devices", 0, 0, "",
                         std::to_string(devices) + " devices x 4 cores (" + std::to_string(estimate.cores) +
                             " cores, " + std::to_string(estimate.steps) + " steps an execution) would take about " +
                             gigabytes(estimate.bytes) + " of memory, more than the " + gigabytes(budget_bytes) +
                             " this machine gives one run (half its memory); at most --scale-devices " +
                             std::to_string(fits) + " fits");
}

}  // namespace weft::bench
