// NaN and infinities, in every form TOML and --set let them through, are refused wherever a
// number is read: the one real-valued key (scheduler.watchdog_seconds), integer keys and
// kernel parameters. Each error names the key and points at the value.
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;

ConfigError set_error(std::string_view assignment) {
  return config_error_from([&] {
    Config config;
    Params params{{"rows", 1}};
    apply_set(config, params, assignment);
  });
}

ConfigError file_error(std::string_view text) {
  return config_error_from([&] {
    Config config;
    apply_config_text(config, text, "f.toml");
  });
}

TEST_CASE("A --set value refuses NaN and infinities for every numeric key", "[config][hardening]") {
  for (const std::string value : {"nan", "+nan", "-nan", "inf", "+inf", "-inf"}) {
    CAPTURE(value);
    for (const std::string key : {"scheduler.watchdog_seconds", "scheduler.max_steps", "scheduler.seed",
                                  "topology.devices", "memory.hbm_bytes", "params.rows"}) {
      CAPTURE(key);
      const ConfigError error = set_error(key + "=" + value);
      CHECK_CONFIG_ERROR(error, "--set", 1, static_cast<int>(key.size()) + 2, key);
    }
  }
  // A float where an integer goes is a type error that says so.
  CHECK(set_error("scheduler.max_steps=+inf").message == "expected an integer, found a floating-point number");
  CHECK(set_error("scheduler.watchdog_seconds=+inf").message == "value inf is out of range (expected 0..86400)");
  CHECK(set_error("scheduler.watchdog_seconds=-nan").message.find("is out of range (expected 0..86400)") !=
        std::string::npos);
  CHECK(set_error("scheduler.watchdog_seconds=nan").message == "expected a number, found a string");
}

TEST_CASE("A config file refuses NaN and infinities", "[config][hardening]") {
  for (const std::string value : {"nan", "+nan", "-nan", "inf", "+inf", "-inf"}) {
    CAPTURE(value);
    CHECK_CONFIG_ERROR(file_error("[scheduler]\nwatchdog_seconds = " + value + "\n"), "f.toml", 2, 20,
                       "scheduler.watchdog_seconds");
    CHECK_CONFIG_ERROR(file_error("[topology]\ndevices = " + value + "\n"), "f.toml", 2, 11, "topology.devices");
  }
}

}  // namespace
}  // namespace weft::sim
