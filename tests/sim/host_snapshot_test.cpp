// Host inputs filled once (sim/engine/host_snapshot.hpp): a simulation runs its scenario's setup
// at the first execution only, and every later execution starts from what it left, even after
// a kernel that overwrote its inputs in place; a setup that throws throws at every execution.

#include <catch2/catch.hpp>

#include <stdexcept>

#include "sim/api/core.hpp"
#include "sim/api/host.hpp"
#include "sim/engine/host_snapshot.hpp"
#include "tests/sim/sim_test_support.hpp"

using namespace weft;

TEST_CASE("The setup runs once, each execution starts from its inputs, not the last execution's",
          "[sim][host_snapshot]") {
  int setups = 0;
  sim::ScenarioDefinition scenario;
  scenario.name = "in_place";
  scenario.setup = [&setups](sim::Host& host) {
    ++setups;
    host.hbm<float>("x", {4});
    host.hbm<float>("y", {2});
    host.hbm<float>("out", {3});  // left as it starts: an output
    for (int d = 0; d < host.num_devices(); ++d) {
      host.data<float>("x", d) = Eigen::ArrayXf::LinSpaced(4, 1.0F, 4.0F) * static_cast<float>(d + 1);
      host.data<float>("y", d).setConstant(7.0F);
    }
  };
  // Each core adds one to its device's x in place, and to its out (zero when it starts).
  scenario.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    core.store(x, core.load(x) + 1.0F);
    auto out = core.hbm<float>("out");
    core.store(out, core.load(out) + 1.0F);
  };
  scenario.check = [](const sim::Host& host) -> std::string {
    for (int d = 0; d < host.num_devices(); ++d) {
      const Eigen::ArrayXf want = Eigen::ArrayXf::LinSpaced(4, 1.0F, 4.0F) * static_cast<float>(d + 1) + 1.0F;
      if (!(host.data<float>("x", d) == want).all())
        return "x on device " + std::to_string(d) + " is not its input plus one";
      if (!(host.data<float>("y", d) == 7.0F).all()) return "y on device " + std::to_string(d) + " changed";
      if (!(host.data<float>("out", d) == 1.0F).all())
        return "out on device " + std::to_string(d) + " did not start at zero";
    }
    return "";
  };
  sim::Simulation simulation(sim::test::machine_of(3, 1, true), scenario, {});
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const auto result = simulation.run_seed(seed);
    CAPTURE(seed, result.details);
    REQUIRE(result.verdict == model::Verdict::ok);
  }
  CHECK(setups == 1);
}

TEST_CASE("A setup that throws throws at every execution", "[sim][host_snapshot]") {
  int setups = 0;
  sim::ScenarioDefinition scenario;
  scenario.name = "bad_setup";
  scenario.setup = [&setups](sim::Host& host) {
    ++setups;
    host.hbm<float>("x", {4});
    host.hbm<float>("x", {4});  // twice: an error of the setup
  };
  scenario.kernel = [](sim::Core&) {};
  sim::Simulation simulation(sim::test::machine_of(2, 1, false), scenario, {});
  CHECK_THROWS_WITH(simulation.run_seed(0), Catch::Contains("host buffer 'x' is allocated twice"));
  CHECK_THROWS_WITH(simulation.run_seed(1), Catch::Contains("host buffer 'x' is allocated twice"));
  CHECK(setups == 2);
}

TEST_CASE("Host memory above the snapshot's bound is set up at every execution instead", "[sim][host_snapshot]") {
  int setups = 0;
  sim::ScenarioDefinition scenario;
  scenario.name = "large_inputs";
  const std::int64_t elements = static_cast<std::int64_t>(sim::HostSnapshot::max_bytes / sizeof(float) / 2);
  scenario.setup = [&setups, elements](sim::Host& host) {
    ++setups;
    host.hbm<float>("x", {elements});  // half the bound on each of 3 devices
    for (int d = 0; d < host.num_devices(); ++d) host.data<float>("x", d)[elements - 1] = static_cast<float>(d);
  };
  scenario.kernel = [](sim::Core&) {};
  scenario.check = [elements](const sim::Host& host) -> std::string {
    for (int d = 0; d < host.num_devices(); ++d)
      if (host.data<float>("x", d)[elements - 1] != static_cast<float>(d)) return "x lost its input";
    return "";
  };
  sim::Simulation simulation(sim::test::machine_of(3, 1, false), scenario, {});
  REQUIRE(simulation.run_seed(0).verdict == model::Verdict::ok);
  REQUIRE(simulation.run_seed(1).verdict == model::Verdict::ok);
  CHECK(setups == 2);
}
