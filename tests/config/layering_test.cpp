// defaults < config file < scenario file < --set, each layer changing only what it names.
#include <array>
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/run_config.hpp"
#include "sim/config/scenario_file.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

using model::DmaExecution;
using testing::TempDir;

constexpr std::string_view base_config = R"(
[topology]
devices = 8
[dma]
execution = "eager"
[scheduler]
seed = 5
max_steps = 100
)";

constexpr std::string_view scenario_text = R"(
kernel = "ring_all_gather"
config = "../configs/base.toml"
expect = "data_race"
description = "layering test"
[dma]
execution = "on_wait"
[scheduler]
seed = 7
[params]
rows = 8
flag = true
)";

Params kernel_params() { return Params{{"rows", 1}, {"cols", 4}, {"flag", 0}}; }

TEST_CASE("Each layer overrides the one before", "[config]") {
  const TempDir dir{"layers"};
  dir.write("configs/base.toml", base_config);
  const ScenarioFile scenario = read_scenario_file(dir.write("scenarios/s.toml", scenario_text));
  const std::array<std::string, 2> sets{"scheduler.seed=9", "params.rows=16"};
  Params params = kernel_params();

  const Config config = load_run_config(scenario, std::nullopt, sets, params);

  CHECK(config.machine.mesh == std::vector<int>{8});                // config file
  CHECK(config.scheduler.max_steps == 100);                         // config file
  CHECK(config.machine.dma_execution == DmaExecution::on_wait);     // scenario over file
  CHECK(config.scheduler.seed == 9);                                // --set over scenario
  CHECK(config.race_detection.enabled);                             // default
  CHECK(config.machine.cores_per_device == 1);                      // default
  CHECK(params == Params{{"rows", 16}, {"cols", 4}, {"flag", 1}});  // default < scenario < --set
}

TEST_CASE("The layers can also be applied one by one", "[config]") {
  const TempDir dir{"layers-stepwise"};
  const auto config_path = dir.write("configs/base.toml", base_config);
  const ScenarioFile scenario = read_scenario_file(dir.write("scenarios/s.toml", scenario_text));
  Config config;
  Params params = kernel_params();

  REQUIRE(scenario.config == config_path.lexically_normal());
  apply_config_file(config, *scenario.config);
  CHECK(config.scheduler.seed == 5);
  apply_scenario_overrides(config, scenario);
  CHECK(config.scheduler.seed == 7);
  apply_scenario_params(params, scenario);
  CHECK(params.at("rows") == 8);
  apply_set(config, params, "scheduler.seed=9");
  CHECK(config.scheduler.seed == 9);
  CHECK(config.machine.mesh == std::vector<int>{8});
}

TEST_CASE("A scenario file's own keys are read", "[config]") {
  const TempDir dir{"scenario-keys"};
  const auto path = dir.write("scenarios/s.toml", scenario_text);
  const ScenarioFile scenario = read_scenario_file(path);
  CHECK(scenario.path == path);
  CHECK(scenario.kernel == "ring_all_gather");
  CHECK(scenario.config == (dir.path() / "configs/base.toml").lexically_normal());
  CHECK(scenario.expect == model::Verdict::data_race);
  CHECK(scenario.description == "layering test");
  CHECK_FALSE(scenario.kernels);
  const auto with_library = dir.write("scenarios/mine.toml", "kernel = \"mine\"\nkernels = \"../build/libmine.so\"\n");
  CHECK(read_scenario_file(with_library).kernels == (dir.path() / "build/libmine.so").lexically_normal());
}

TEST_CASE("A config file given on the command line replaces the scenario's", "[config]") {
  const TempDir dir{"config-override"};
  dir.write("configs/base.toml", base_config);
  const auto other = dir.write("other.toml", "[topology]\nmesh = [2, 2]\n");
  const ScenarioFile scenario = read_scenario_file(dir.write("scenarios/s.toml", scenario_text));
  Params params = kernel_params();
  const Config config = load_run_config(scenario, other, {}, params);
  CHECK(config.machine.mesh == std::vector<int>{2, 2});
  CHECK(config.scheduler.max_steps == Config{}.scheduler.max_steps);
}

TEST_CASE("A later layer's device count replaces the mesh", "[config]") {
  Config config;
  apply_config_text(config, "[topology]\nmesh = [2, 4]\ncores_per_device = 2\n", "mesh.toml");
  CHECK(config.machine.mesh == std::vector<int>{2, 4});
  Params params;
  apply_set(config, params, "topology.devices=2");
  CHECK(config.machine.mesh == std::vector<int>{2});
  CHECK(config.machine.cores_per_device == 2);
  apply_config_text(config, "[topology]\nmesh = [1, 2, 3, 4]\n", "mesh4.toml");
  CHECK(config.machine.mesh == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("A --set value takes a bare word as a string and anything else as TOML", "[config]") {
  Config config;
  Params params{{"flag", 0}, {"rows", 1}};
  apply_set(config, params, "dma.execution=eager");
  apply_set(config, params, "memory.uninitialized=zero");
  apply_set(config, params, "race_detection.enabled=false");
  apply_set(config, params, " topology.mesh = [2, 4] ");
  apply_set(config, params, "scheduler.seed=12_345");
  apply_set(config, params, "params.flag=true");
  apply_set(config, params, "params.rows=-3");
  CHECK(config.machine.dma_execution == DmaExecution::eager);
  CHECK(config.machine.uninitialized == model::Uninitialized::zero);
  CHECK_FALSE(config.race_detection.enabled);
  CHECK(config.machine.mesh == std::vector<int>{2, 4});
  CHECK(config.scheduler.seed == 12'345);
  CHECK(params == Params{{"flag", 1}, {"rows", -3}});
  apply_set(config, params, "memory.uninitialized=nan");  // a word, not TOML's float nan
  CHECK(config.machine.uninitialized == model::Uninitialized::nan);
  apply_set(config, params, "memory.uninitialized=\"zero\"");
  CHECK(config.machine.uninitialized == model::Uninitialized::zero);
}

TEST_CASE("A layer that fails leaves the config and params as they were", "[config]") {
  Config config;
  Params params{{"rows", 1}};
  CHECK_THROWS_AS(apply_config_text(config, "[topology]\ndevices = 8\ncores_per_device = 0\n", "t"), ConfigError);
  CHECK(config.machine.mesh == std::vector<int>{4});
  CHECK_THROWS_AS(apply_set(config, params, "params.cols=3"), ConfigError);
  CHECK(params == Params{{"rows", 1}});
}

}  // namespace
}  // namespace weft::sim
