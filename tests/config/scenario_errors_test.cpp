// Mistakes in scenario files: their own keys, their sections and their [params].
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/scenario_file.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;
using testing::TempDir;

TEST_CASE("An unknown verdict is an error that lists the verdicts", "[config]") {
  const TempDir dir{"bad-verdict"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\nexpect = \"okay\"\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 2, 10, "expect");
  CHECK(error.message == "unknown verdict 'okay' (expected one of: " + std::string{model::verdict_names()} + ")");
}

TEST_CASE("A value spelled across lines makes a one-line error, its control characters escaped", "[config]") {
  // Found by the config fuzzer: a TOML multi-line string as the verdict.
  const TempDir dir{"multiline-verdict"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\nexpect = \"\"\"o\nk\\t\\u001b\"\"\"\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 2, 10, "expect");
  CHECK(error.message.find("unknown verdict 'o\nk\t\x1b'") == 0);
  const std::string shown = error.what();
  CHECK(shown.find('\n') == std::string::npos);
  CHECK(shown.find("key 'expect': unknown verdict 'o\\nk\\t\\x1b' (expected one of: ") != std::string::npos);
}

TEST_CASE("found_within needs an expected verdict other than ok, and a count of at least 1", "[config]") {
  const TempDir dir{"found-within"};
  const auto ok = dir.write("ok.toml", "kernel = \"k\"\nfound_within = 100\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(ok); });
  CHECK_CONFIG_ERROR(error, ok.string(), 2, 1, "found_within");
  CHECK(error.message.find("needs an `expect` other than ok") == 0);
  const auto zero = dir.write("zero.toml", "kernel = \"k\"\nexpect = \"deadlock\"\nfound_within = 0\n");
  CHECK_CONFIG_ERROR(config_error_from([&] { read_scenario_file(zero); }), zero.string(), 3, 16, "found_within");
  const auto good = dir.write("good.toml", "kernel = \"k\"\nexpect = \"deadlock\"\nfound_within = 100\n");
  CHECK(read_scenario_file(good).found_within == 100);
}

TEST_CASE("A scenario without a kernel is an error", "[config]") {
  const TempDir dir{"no-kernel"};
  const auto path = dir.write("s.toml", "expect = \"ok\"\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 1, 1, "kernel");
}

TEST_CASE("An unknown top-level key of a scenario lists the known ones", "[config]") {
  const TempDir dir{"scenario-unknown"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\nkernal = 3\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 2, 1, "kernal");
  CHECK(
      error.message ==
      "unknown key (known keys: kernel, kernels, config, expect, found_within, description; known sections: topology, "
      "memory, dma, race_detection, scheduler, compat, program, params)");
}

TEST_CASE("A scenario's config sections are checked when it is read", "[config]") {
  const TempDir dir{"scenario-section"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\n[dma]\nexecution = \"fast\"\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 3, 13, "dma.execution");
}

TEST_CASE("An unknown parameter is an error that lists the known ones", "[config]") {
  const TempDir dir{"unknown-param"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\n[params]\nrows = 8\nrowz = 2\n");
  const ScenarioFile scenario = read_scenario_file(path);
  Params params{{"rows", 1}, {"cols", 4}};
  const ConfigError error = config_error_from([&] { apply_scenario_params(params, scenario); });
  CHECK_CONFIG_ERROR(error, path.string(), 4, 1, "params.rowz");
  CHECK(error.message == "unknown parameter (known parameters: cols, rows)");
  CHECK(params == Params{{"rows", 1}, {"cols", 4}});
}

TEST_CASE("A parameter of another kind than the kernel's default is an error naming it", "[config]") {
  const TempDir dir{"param-type"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\n[params]\nrows = \"8\"\n");
  const ScenarioFile scenario = read_scenario_file(path);  // a string is a parameter value
  Params params{{"rows", 1}};
  const ConfigError error = config_error_from([&] { apply_scenario_params(params, scenario); });
  CHECK_CONFIG_ERROR(error, path.string(), 3, 8, "params.rows");
  CHECK(error.message == "expected an integer (the kernel's default is 1), found \"8\"");
  CHECK(params == Params{{"rows", 1}});
}

TEST_CASE("A parameter that is no parameter value is an error when the file is read", "[config]") {
  const TempDir dir{"param-float"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\n[params]\nrows = 8.5\n");
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 3, 8, "params.rows");
  CHECK_THAT(error.message, Catch::StartsWith("expected an integer, a boolean, a string or an array of them"));
}

TEST_CASE("The core limit is checked across layers", "[config]") {
  const TempDir dir{"core-limit"};
  const auto path = dir.write("s.toml", "kernel = \"k\"\n[topology]\ncores_per_device = 8\n");
  const ScenarioFile scenario = read_scenario_file(path);  // fine on the default 4 devices
  Config config;
  apply_config_text(config, "[topology]\ndevices = 4096\n", "big.toml");
  const ConfigError error = config_error_from([&] { apply_scenario_overrides(config, scenario); });
  CHECK_CONFIG_ERROR(error, path.string(), 3, 20, "topology.cores_per_device");
  CHECK(config.machine.cores_per_device == 1);
}

TEST_CASE("A missing scenario file is an error at line 0, column 0", "[config]") {
  const TempDir dir{"no-scenario"};
  const auto path = dir.path() / "nope.toml";
  const ConfigError error = config_error_from([&] { read_scenario_file(path); });
  CHECK_CONFIG_ERROR(error, path.string(), 0, 0, "");
}

}  // namespace
}  // namespace weft::sim
