// Mistakes in --set arguments: source "--set", line 1, the column inside the argument.
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;

ConfigError error_in(std::string_view assignment) {
  return config_error_from([&] {
    Config config;
    Params params{{"rows", 1}, {"cols", 4}};
    apply_set(config, params, assignment);
  });
}

TEST_CASE("A --set without '=' is an error at the end of the argument", "[config]") {
  const ConfigError error = error_in("topology.devices");
  CHECK_CONFIG_ERROR(error, "--set", 1, 17, "topology.devices");
  CHECK(std::string{error.what()} == "--set:1:17: key 'topology.devices': expected KEY=VALUE, found no '='");
}

TEST_CASE("A --set with an unknown key is an error at the key", "[config]") {
  const ConfigError error = error_in("topology.bogus=3");
  CHECK_CONFIG_ERROR(error, "--set", 1, 10, "topology.bogus");
  CHECK(error.message == "unknown key (known keys: devices, mesh, cores_per_device)");
  CHECK_CONFIG_ERROR(error_in("network.links=3"), "--set", 1, 1, "network");
  CHECK_CONFIG_ERROR(error_in("kernel=ring"), "--set", 1, 1, "kernel");
}

TEST_CASE("A --set value error points into the argument", "[config]") {
  const ConfigError word = error_in("dma.execution=fast");
  CHECK_CONFIG_ERROR(word, "--set", 1, 15, "dma.execution");
  CHECK(std::string{word.what()} ==
        "--set:1:15: key 'dma.execution': unknown value 'fast' (expected eager, on_wait or async)");
  CHECK_CONFIG_ERROR(error_in("topology.devices = 0"), "--set", 1, 20, "topology.devices");
  CHECK_CONFIG_ERROR(error_in("race_detection.enabled=yes"), "--set", 1, 24, "race_detection.enabled");
  CHECK_CONFIG_ERROR(error_in("topology.mesh=[2, x]"), "--set", 1, 19, "topology.mesh");
}

TEST_CASE("A --set of an unknown parameter lists the known ones", "[config]") {
  const ConfigError error = error_in("params.nope=1");
  CHECK_CONFIG_ERROR(error, "--set", 1, 8, "params.nope");
  CHECK(error.message == "unknown parameter (known parameters: cols, rows)");
}

TEST_CASE("A --set without a key or a value is an error", "[config]") {
  CHECK_CONFIG_ERROR(error_in("scheduler.seed="), "--set", 1, 16, "scheduler.seed");
  CHECK_CONFIG_ERROR(error_in("=3"), "--set", 1, 1, "");
  CHECK_CONFIG_ERROR(error_in("topology.devices=2\nkernel=3"), "--set", 1, 19, "");
}

TEST_CASE("A --set value that is not TOML is a syntax error in the argument", "[config]") {
  const ConfigError error = error_in("topology.mesh=[2,");
  CHECK_CONFIG_ERROR(error, "--set", 1, 18, "topology.mesh");
  CHECK(error.message.rfind("TOML syntax error: ", 0) == 0);
}

TEST_CASE("A --set that exceeds the core limit is an error at its value", "[config]") {
  Config config;
  Params params;
  apply_set(config, params, "topology.cores_per_device=8");
  const ConfigError error = config_error_from([&] { apply_set(config, params, "topology.devices=4096"); });
  CHECK_CONFIG_ERROR(error, "--set", 1, 18, "topology.devices");
  CHECK(config.machine.mesh == std::vector<int>{4});
}

}  // namespace
}  // namespace weft::sim
