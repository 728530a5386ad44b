#include "bench/run_lengths.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <string>

#include "bench/workloads.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/simulation.hpp"

namespace weft::bench {
namespace {

using Clock = std::chrono::steady_clock;  // measures only: it never influences a choice

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

std::uint64_t steps_of(const sim::ScenarioDefinition& pipeline, std::int64_t tiles) {
  sim::Simulation simulation(long_body_config(), pipeline, long_body_params(tiles));
  return simulation.run_seed(0).steps;
}

// The tiles whose run is closest to `steps`: a run's steps are affine in its tiles (every
// interleaving of the kernel takes the same steps).
std::int64_t tiles_for(const sim::ScenarioDefinition& pipeline, std::uint64_t steps) {
  const double four = static_cast<double>(steps_of(pipeline, 4)), eight = static_cast<double>(steps_of(pipeline, 8));
  const double per_tile = (eight - four) / 4, fixed = four - 4 * per_tile;
  return std::max<std::int64_t>(1, std::llround((static_cast<double>(steps) - fixed) / per_tile));
}

struct PerStep {
  std::uint64_t run_steps = 0;
  double ns = 0;
};

// A workload: a scenario, its parameters, as a program of `launches` launches.
struct Shape {
  const sim::ScenarioDefinition& scenario;
  sim::Params params;
  int launches = 1;
  sim::Config config() const {
    sim::Config config = long_body_config();
    config.machine.launches = launches;
    return config;
  }
};

// Seeded executions (seeds 1, 2, ... after a warm-up) until `budget` steps.
PerStep plain(const Shape& shape, std::uint64_t budget) {
  sim::Simulation simulation(shape.config(), shape.scenario, shape.params);
  PerStep result{simulation.run_seed(0).steps, 0};
  std::uint64_t steps = 0;
  const auto start = Clock::now();
  for (std::uint64_t seed = 1; steps < budget; ++seed) steps += simulation.run_seed(seed).steps;
  result.ns = seconds_since(start) * 1e9 / static_cast<double>(steps);
  return result;
}

// Explorations bounded by runs, one after another, until `budget` steps, or until a run ends
// past `max_seconds` (an explorer whose runs cost their length squared would take hours).
double explored(const Shape& shape, std::uint64_t run_steps, std::uint64_t budget, double max_seconds) {
  sim::Simulation simulation(shape.config(), shape.scenario, shape.params);
  {  // the warm-up (run_lengths.hpp): an exploration of one run, not timed
    scheduler::ExploreOptions once;
    once.max_executions = 1;
    sim::explore(simulation, once, true, nullptr, {});
  }
  std::uint64_t steps = 0;
  std::atomic<bool> late{false};
  sim::ExploreWatch watch;
  watch.stop = &late;
  const auto start = Clock::now();
  watch.progress = [&](const sim::ExploreProgress&) {
    if (seconds_since(start) > max_seconds) late = true;  // stops before the next run's first step
  };
  while (steps < budget && !late) {
    scheduler::ExploreOptions options;
    options.max_executions =
        std::max<std::uint64_t>(1, (budget - steps + run_steps - 1) / std::max<std::uint64_t>(run_steps, 1));
    steps += sim::explore(simulation, options, true, nullptr, watch).steps;
  }
  return seconds_since(start) * 1e9 / static_cast<double>(std::max<std::uint64_t>(steps, 1));
}

// name_steps, name_ns_per_step, explore_name_ns_per_step, explore_name_over_plain.
void figures(const std::string& name, const Shape& shape, std::uint64_t budget, double max_seconds,
             nlohmann::ordered_json& out) {
  const PerStep plain_run = plain(shape, std::max(budget, std::uint64_t{1}));
  budget = std::max(budget, plain_run.run_steps);
  const double explore_ns = explored(shape, plain_run.run_steps, budget, max_seconds);
  out[name + "_steps"] = plain_run.run_steps;
  out[name + "_ns_per_step"] = rounded(plain_run.ns, 1);
  out["explore_" + name + "_ns_per_step"] = rounded(explore_ns, 1);
  out["explore_" + name + "_over_plain"] = rounded(explore_ns / plain_run.ns, 2);
}

}  // namespace

void run_length_figures(const sim::ScenarioRegistry& registry, std::uint64_t steps_per_length, int launches,
                        double max_seconds, nlohmann::ordered_json& out) {
  const sim::ScenarioDefinition& pipeline = scenario(registry, "core_pipeline");
  for (const std::uint64_t length : {100, 1'000, 10'000, 100'000}) {
    const Shape shape{pipeline, long_body_params(tiles_for(pipeline, length))};
    figures("long_body_" + std::to_string(length), shape, std::max(steps_per_length, length), max_seconds, out);
  }
  // The many-launch shape: 4 tiles a launch, `launches` launches a run.
  figures("many_launches", Shape{pipeline, long_body_params(4), launches}, steps_per_length, max_seconds, out);
  // Flash attention's forward pass with 128 kv blocks a q block, one q block a core.
  figures("flash_attention_128", Shape{scenario(registry, "pallas_flash_attention"), flash_attention_params(128)},
          steps_per_length, max_seconds, out);
}

}  // namespace weft::bench
