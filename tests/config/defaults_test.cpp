// The embedded default, the built-in defaults and the shipped config files agree.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"

namespace weft::sim {
namespace {

using testing::check_same_config;
using testing::non_default_config;
using testing::source_path;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

TEST_CASE("The embedded default sets every key to its built-in default", "[config]") {
  Config config = non_default_config();
  apply_config_text(config, embedded_default_config(), "<embedded default>");
  check_same_config(config, Config{});
}

TEST_CASE("The embedded default is configs/default.toml as it was at build time", "[config]") {
  CHECK(embedded_default_config() == read_file(source_path("configs/default.toml")));
}

TEST_CASE("default_config equals the built-in defaults", "[config]") { check_same_config(default_config(), Config{}); }

TEST_CASE("Each shipped config loads", "[config]") {
  SECTION("default.toml") {
    Config config = non_default_config();
    apply_config_file(config, source_path("configs/default.toml"));
    check_same_config(config, Config{});
  }
  SECTION("ring4.toml") {
    Config config = non_default_config();
    apply_config_file(config, source_path("configs/ring4.toml"));
    CHECK(config.machine.mesh == std::vector<int>{4});
    CHECK(config.machine.cores() == 4);
  }
  SECTION("ring8.toml") {
    Config config;
    apply_config_file(config, source_path("configs/ring8.toml"));
    CHECK(config.machine.mesh == std::vector<int>{8});
    CHECK(config.machine.cores() == 8);
    Config expected;
    expected.machine.mesh = {8};
    check_same_config(config, expected);
  }
  SECTION("mesh2x4_2cores.toml") {
    Config config;
    apply_config_file(config, source_path("configs/mesh2x4_2cores.toml"));
    CHECK(config.machine.mesh == std::vector<int>{2, 4});
    CHECK(config.machine.cores_per_device == 2);
    CHECK(config.machine.devices() == 8);
    CHECK(config.machine.cores() == 16);
  }
}

}  // namespace
}  // namespace weft::sim
