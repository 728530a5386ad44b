#include <catch2/catch.hpp>

#include "sim/engine/explore.hpp"

using namespace weft;

namespace {

sim::Config one_device(int cores) {
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = cores;
  config.machine.uninitialized = model::Uninitialized::zero;
  config.race_detection.enabled = false;
  return config;
}

sim::ExploreReport explore(const sim::ScenarioDefinition& scenario, const sim::Config& config, bool reduction = true) {
  sim::Simulation simulation(config, scenario, scenario.params);
  scheduler::ExploreOptions options;
  options.reduction = reduction;
  return sim::explore(simulation, options, true);
}

// One core writes a shared scalar, N cores read it.
sim::ScenarioDefinition readers() {
  sim::ScenarioDefinition s;
  s.name = "readers";
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("x", {1}); };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<std::int32_t>("x");
    if (core.core_id() == 0)
      core.store(x, sim::Tile<std::int32_t>::Constant(1, 1, 7));
    else
      (void)core.load(x);
  };
  return s;
}

// Core 0 scans a[N], a[N-1], ... down to the first zero; core j sets a[j] = a[j-1] + 1.
sim::ScenarioDefinition lastzero() {
  sim::ScenarioDefinition s;
  s.name = "lastzero";
  s.setup = [](sim::Host& host) { host.hbm<std::int32_t>("a", {host.num_cores()}); };
  s.kernel = [](sim::Core& core) {
    auto a = core.hbm<std::int32_t>("a");
    const int n = core.num_cores() - 1, me = core.core_id();
    if (me == 0) {
      for (int i = n; i >= 0; --i)
        if (core.load(a.at({sim::ds(i, 1)}))(0, 0) == 0) break;
    } else {
      const auto previous = core.load(a.at({sim::ds(me - 1, 1)}));
      core.store(a.at({sim::ds(me, 1)}), previous + 1);
    }
  };
  return s;
}

}  // namespace

TEST_CASE("cores that share nothing are explored in exactly one execution", "[sim][explore]") {
  sim::ScenarioDefinition s;
  s.name = "independent";
  s.kernel = [](sim::Core& core) {
    auto mine = core.vmem<float>({4});
    auto sem = core.semaphore();
    for (int i = 0; i < 3; ++i) {
      core.store(mine, sim::Tile<float>::Constant(1, 4, float(i)));
      core.signal(sem);
      core.wait(sem);
    }
  };
  const auto report = explore(s, one_device(4));
  CHECK(report.complete == 1);
  CHECK(report.abandoned == 0);
  CHECK(report.exhausted);
}

TEST_CASE("readers(N) takes exactly 2^N executions", "[sim][explore]") {
  for (int n = 1; n <= 6; ++n) {
    CAPTURE(n);
    const auto report = explore(readers(), one_device(n + 1));
    CHECK(report.complete == (1u << n));
    CHECK(report.exhausted);
    INFO("abandoned " << report.abandoned);
    CHECK(report.abandoned == 0);
  }
}

TEST_CASE("lastzero(N) takes 2, 5, 12, 28 executions for N = 1..4", "[sim][explore]") {
  const std::uint64_t expected[] = {2, 5, 12, 28};
  for (int n = 1; n <= 4; ++n) {
    CAPTURE(n);
    const auto report = explore(lastzero(), one_device(n + 1));
    CHECK(report.complete == expected[n - 1]);
    CHECK(report.exhausted);
    WARN("lastzero(" << n << "): " << report.complete << " complete, " << report.abandoned << " abandoned");
  }
}
