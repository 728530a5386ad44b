// Mistakes in config text and files: each is a ConfigError naming source, line, column, key.
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;
using testing::TempDir;

ConfigError error_in(std::string_view text) {
  return config_error_from([&] {
    Config config;
    apply_config_text(config, text, "test.toml");
  });
}

TEST_CASE("Malformed TOML is a ConfigError at toml++'s position", "[config]") {
  const ConfigError error = error_in("[topology]\ndevices = = 4\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 2, 11, "");
  CHECK(error.message.rfind("TOML syntax error: ", 0) == 0);

  const ConfigError header = error_in("# a comment\n[topology\ndevices = 4\n");
  CHECK_CONFIG_ERROR(header, "test.toml", 2, 10, "");
}

TEST_CASE("An unknown key is an error that lists the known keys", "[config]") {
  const ConfigError error = error_in("[dma]\nexecution = \"async\"\nspeed = 3\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 3, 1, "dma.speed");
  CHECK(error.message == "unknown key (known keys: execution, chunk_bytes)");
}

TEST_CASE("An unknown section is an error that lists the known sections", "[config]") {
  const ConfigError error = error_in("[scheduler]\nseed = 1\n\n[network]\nlinks = 2\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 4, 2, "network");
  CHECK(error.message ==
        "unknown section (known sections: topology, memory, dma, race_detection, scheduler, "
        "compat, program)");
}

TEST_CASE("A scenario's keys are unknown in a config file", "[config]") {
  const ConfigError error = error_in("kernel = \"ring\"\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 1, 1, "kernel");
  CHECK(error.message == "not allowed here (it belongs in a scenario file)");
  CHECK_CONFIG_ERROR(error_in("[params]\nrows = 8\n"), "test.toml", 1, 2, "params");
}

TEST_CASE("A value of the wrong type is an error that names both types", "[config]") {
  const ConfigError error = error_in("[topology]\ndevices = \"four\"\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 2, 11, "topology.devices");
  CHECK(error.message == "expected an integer, found a string");

  const ConfigError seed = error_in("[scheduler]\nseed = 1.5\n");
  CHECK_CONFIG_ERROR(seed, "test.toml", 2, 8, "scheduler.seed");
  CHECK(seed.message == "expected an integer, found a floating-point number");

  const ConfigError section = error_in("dma = 3\n");
  CHECK_CONFIG_ERROR(section, "test.toml", 1, 7, "dma");
  CHECK(section.message == "expected a table, found an integer");

  const ConfigError flag = error_in("[race_detection]\nenabled = \"yes\"\n");
  CHECK_CONFIG_ERROR(flag, "test.toml", 2, 11, "race_detection.enabled");
  CHECK(flag.message == "expected a boolean, found a string");
}

TEST_CASE("A value out of range is an error that names the range", "[config]") {
  const ConfigError devices = error_in("[topology]\ndevices = 0\n");
  CHECK_CONFIG_ERROR(devices, "test.toml", 2, 11, "topology.devices");
  CHECK(devices.message == "value 0 is out of range (expected 1..4096)");

  const ConfigError cores = error_in("[topology]\ncores_per_device = 1_000_000_000\n");
  CHECK_CONFIG_ERROR(cores, "test.toml", 2, 20, "topology.cores_per_device");
  CHECK(cores.message == "value 1000000000 is out of range (expected 1..64)");

  const ConfigError capacity = error_in("[memory]\nvmem_bytes = -1\n");
  CHECK_CONFIG_ERROR(capacity, "test.toml", 2, 14, "memory.vmem_bytes");
  CHECK(capacity.message == "value -1 is out of range (expected at least 1)");

  const ConfigError stack = error_in("[scheduler]\n  stack_bytes = 1024\n");
  CHECK_CONFIG_ERROR(stack, "test.toml", 2, 17, "scheduler.stack_bytes");
}

TEST_CASE("An unknown enumerated value is an error that lists the allowed ones", "[config]") {
  const ConfigError error = error_in("[dma]\nexecution = \"fast\"\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 2, 13, "dma.execution");
  CHECK(std::string{error.what()} ==
        "test.toml:2:13: key 'dma.execution': unknown value 'fast' (expected eager, on_wait or "
        "async)");
}

TEST_CASE("A mesh must have 1 to 4 positive extents and at most 4096 devices", "[config]") {
  const ConfigError element = error_in("[topology]\nmesh = [2, \"x\"]\n");
  CHECK_CONFIG_ERROR(element, "test.toml", 2, 12, "topology.mesh");
  CHECK(element.message == "expected an integer, found a string");
  CHECK_CONFIG_ERROR(error_in("[topology]\nmesh = [2, 0]\n"), "test.toml", 2, 12, "topology.mesh");
  CHECK_CONFIG_ERROR(error_in("[topology]\nmesh = []\n"), "test.toml", 2, 8, "topology.mesh");
  CHECK_CONFIG_ERROR(error_in("[topology]\nmesh = [1, 1, 1, 1, 1]\n"), "test.toml", 2, 8, "topology.mesh");
  const ConfigError large = error_in("[topology]\nmesh = [64, 128]\n");
  CHECK_CONFIG_ERROR(large, "test.toml", 2, 8, "topology.mesh");
  CHECK(large.message == "the mesh has 8192 devices (expected at most 4096)");
}

TEST_CASE("Giving both devices and mesh in one document is an error at the later", "[config]") {
  const ConfigError error = error_in("[topology]\nmesh = [2, 2]\ndevices = 4\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 3, 1, "topology.devices");
  CHECK(error.message == "give either devices or mesh, not both");
}

TEST_CASE("More than 16384 cores is an error at the value that made it so", "[config]") {
  const ConfigError error = error_in("[topology]\ndevices = 4096\ncores_per_device = 8\n");
  CHECK_CONFIG_ERROR(error, "test.toml", 3, 20, "topology.cores_per_device");
  CHECK(error.message == "4096 devices * 8 cores_per_device = 32768 cores (expected at most 16384)");
}

TEST_CASE("An unreadable config file is an error at line 0, column 0", "[config]") {
  const TempDir dir{"unreadable"};
  const auto missing = dir.path() / "missing.toml";
  const ConfigError error = config_error_from([&] {
    Config config;
    apply_config_file(config, missing);
  });
  CHECK_CONFIG_ERROR(error, missing.string(), 0, 0, "");
  CHECK(std::string{error.what()} == missing.string() + ": cannot read the file: it does not exist");
}

TEST_CASE("An error in a config file names the file", "[config]") {
  const TempDir dir{"file-error"};
  const auto path = dir.write("bad.toml", "# comment\n\n[memory]\nuninitialized = \"garbage\"\n");
  const ConfigError error = config_error_from([&] {
    Config config;
    apply_config_file(config, path);
  });
  CHECK_CONFIG_ERROR(error, path.string(), 4, 17, "memory.uninitialized");
  CHECK(error.message == "unknown value 'garbage' (expected nan or zero)");
}

}  // namespace
}  // namespace weft::sim
