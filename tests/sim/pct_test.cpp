// PCT in the simulator: run_seed picks it from the configuration, measures its steps estimate
// deterministically, and meets the paper's guarantee on a bug of depth 2.

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "scheduler/strategies/pct.hpp"
#include "sim/engine/simulation.hpp"

using namespace weft;

namespace {

// A flag in shared hbm, raised and lowered again by core 0; core 1 must never see it raised.
//   core 0: `steps` stores; its store 1 raises the flag, its store 1 + `window` lowers it, the
//           others go to its own scratch.
//   core 1: `steps` steps; its last one loads the flag and checks that it is down; the others
//           store to its own scratch.
// Seeing the flag raised needs two orderings: raise -> check -> lower, a bug of depth 2. The
// check sits at core 1's end and the window at core 0's start, so a random walk must run core 1
// almost to its end while core 0 takes only a few steps: unlikely. PCT needs core 0 to lead
// (1/2) and its change point to fall in the window (`window` of k steps).
sim::ScenarioDefinition raised_flag() {
  sim::ScenarioDefinition s;
  s.name = "raised_flag";
  s.summary = "core 0 raises and lowers a flag early; core 1 checks it is down at its end";
  s.params = {{"steps", 20}, {"window", 3}};
  s.expect = model::Verdict::kernel_error;
  s.setup = [](sim::Host& host) {
    host.hbm<float>("flag", {1});
    host.data<float>("flag", 0)[0] = 0.0F;
  };
  s.kernel = [](sim::Core& core) {
    const auto steps = core.param("steps");
    const auto window = core.param("window");
    auto flag = core.hbm<float>("flag");
    auto scratch = core.vmem<float>({1});
    for (std::int64_t i = 0; i < steps; ++i) {
      if (core.core_id() == 0 && i == 1) {
        core.store(flag, sim::Tile<float>::Constant(1, 1, 1.0F));
      } else if (core.core_id() == 0 && i == 1 + window) {
        core.store(flag, sim::Tile<float>::Constant(1, 1, 0.0F));
      } else if (core.core_id() == 1 && i == steps - 1) {
        const sim::Tile<float> seen = core.load(flag);
        core.check(seen(0, 0) == 0.0F, "the flag is raised");
      } else {
        core.store(scratch, sim::Tile<float>::Constant(1, 1, static_cast<float>(i)));
      }
    }
  };
  return s;
}

const sim::ScenarioDefinition& scenario() {
  static const sim::ScenarioDefinition definition = raised_flag();
  return definition;
}

sim::Config two_cores(std::string strategy, int depth = 2, std::int64_t pct_steps = 0) {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 2;
  config.race_detection.enabled = false;
  config.scheduler.strategy = strategy;
  config.scheduler.pct_depth = depth;
  config.scheduler.pct_steps = pct_steps;
  return config;
}

std::string percent(double fraction) {
  std::ostringstream out;
  out.precision(3);
  out << fraction * 100 << "%";
  return out.str();
}

}  // namespace

TEST_CASE("A run with strategy pct uses PctStrategy and one seed gives one schedule", "[sim][pct]") {
  sim::Simulation simulation(two_cores("pct", 3), scenario(), scenario().params);
  sim::Simulation again(two_cores("pct", 3), scenario(), scenario().params);
  for (std::uint64_t seed : {0u, 1u, 42u, 977u}) {
    CAPTURE(seed);
    const auto a = simulation.run_seed(seed);
    const auto b = again.run_seed(seed);
    CHECK(scheduler::encode(a.schedule) == scheduler::encode(b.schedule));
    CHECK(a.verdict == b.verdict);
    CHECK(a.details == b.details);
    // It is PctStrategy's schedule, not the random one.
    scheduler::PctStrategy strategy(seed, 3, simulation.pct_steps());
    CHECK(scheduler::encode(simulation.run(strategy).schedule) == scheduler::encode(a.schedule));
  }
}

TEST_CASE("With depth 1 a pct run lets the leading core run to its end", "[sim][pct]") {
  sim::Simulation simulation(two_cores("pct", 1), scenario(), scenario().params);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const auto result = simulation.run_seed(seed);
    CHECK(result.verdict == model::Verdict::ok);  // depth 1 cannot find a depth-2 bug
    std::string encoded = scheduler::encode(result.schedule);
    CAPTURE(encoded);
    CHECK(std::count(encoded.begin(), encoded.end(), ',') == 1);  // two runs: "cA:n,cB:m"
  }
}

TEST_CASE("pct_steps of 0 is measured from the random strategy at seed 0, whatever ran before", "[sim][pct]") {
  sim::Simulation random(two_cores("random"), scenario(), scenario().params);
  const std::uint64_t measured = random.run_seed(0).steps;
  REQUIRE(measured > 0);

  sim::Simulation fresh(two_cores("pct"), scenario(), scenario().params);
  sim::Simulation used(two_cores("pct"), scenario(), scenario().params);
  for (std::uint64_t seed = 100; seed < 110; ++seed) used.run_seed(seed);
  CHECK(used.pct_steps() == measured);
  const auto a = fresh.run_seed(7);  // the first run of this simulation
  const auto b = used.run_seed(7);   // after ten others
  CHECK(scheduler::encode(a.schedule) == scheduler::encode(b.schedule));
  CHECK(fresh.pct_steps() == measured);

  sim::Simulation configured(two_cores("pct", 2, 5), scenario(), scenario().params);
  CHECK(configured.pct_steps() == 5);
}

TEST_CASE("PCT of depth 2 finds a depth-2 bug in at least 1/(n k) of the seeds", "[sim][pct]") {
  constexpr std::uint64_t seeds = 10'000;
  sim::Simulation pct(two_cores("pct", 2), scenario(), scenario().params);
  sim::Simulation random(two_cores("random"), scenario(), scenario().params);
  const std::uint64_t n = 2;  // two cores, no DMAs
  const std::uint64_t k = pct.pct_steps();
  std::uint64_t pct_found = 0;
  std::uint64_t random_found = 0;
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    const auto by_pct = pct.run_seed(seed);
    REQUIRE((by_pct.verdict == model::Verdict::ok || by_pct.verdict == model::Verdict::kernel_error));
    pct_found += by_pct.verdict == model::Verdict::kernel_error;
    const auto by_random = random.run_seed(seed);
    REQUIRE((by_random.verdict == model::Verdict::ok || by_random.verdict == model::Verdict::kernel_error));
    random_found += by_random.verdict == model::Verdict::kernel_error;
  }
  const double pct_fraction = static_cast<double>(pct_found) / seeds;
  const double random_fraction = static_cast<double>(random_found) / seeds;
  const double bound = 1.0 / static_cast<double>(n * k);
  INFO("PCT depth 2 found the depth-2 bug in "
       << pct_found << "/" << seeds << " seeds (" << percent(pct_fraction) << "); bound 1/(n k) = 1/(" << n << " * "
       << k << ") = " << percent(bound) << "; random strategy: " << random_found << "/" << seeds << " ("
       << percent(random_fraction) << ")");
  CHECK(pct_fraction >= bound);
}
