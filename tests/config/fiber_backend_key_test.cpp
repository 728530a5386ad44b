// [scheduler] fiber_backend: the key parses from files and --set, and a bad value is an error that
// names file, line, column and key and lists the allowed values.
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

using scheduler::FiberBackend;
using testing::config_error_from;

Config from_text(std::string_view text) {
  Config config;
  apply_config_text(config, text, "test.toml");
  return config;
}

Config from_set(const std::string& assignment) {
  Config config;
  Params params;
  apply_set(config, params, assignment);
  return config;
}

TEST_CASE("scheduler.fiber_backend is context by default and parses both backends", "[config]") {
  CHECK(Config{}.scheduler.fiber_backend == FiberBackend::context);
  CHECK(default_config().scheduler.fiber_backend == FiberBackend::context);
  CHECK(from_text("[scheduler]\nfiber_backend = \"boost_fiber\"\n").scheduler.fiber_backend ==
        FiberBackend::boost_fiber);
  CHECK(from_text("[scheduler]\nfiber_backend = \"context\"\n").scheduler.fiber_backend == FiberBackend::context);
  CHECK(from_set("scheduler.fiber_backend=boost_fiber").scheduler.fiber_backend == FiberBackend::boost_fiber);
  CHECK(from_set("scheduler.fiber_backend=\"context\"").scheduler.fiber_backend == FiberBackend::context);
}

TEST_CASE("A bad scheduler.fiber_backend is an error at the value that lists the backends", "[config]") {
  const ConfigError word = config_error_from([] { from_text("[scheduler]\nseed = 1\nfiber_backend = \"boost\"\n"); });
  CHECK_CONFIG_ERROR(word, "test.toml", 3, 17, "scheduler.fiber_backend");
  CHECK(std::string{word.what()} ==
        "test.toml:3:17: key 'scheduler.fiber_backend': unknown value 'boost' (expected context or boost_fiber)");

  const ConfigError type = config_error_from([] { from_text("[scheduler]\n  fiber_backend = 2\n"); });
  CHECK_CONFIG_ERROR(type, "test.toml", 2, 19, "scheduler.fiber_backend");
  CHECK(type.message == "expected a string, found an integer");

  const ConfigError set = config_error_from([] { from_set("scheduler.fiber_backend=fibers"); });
  CHECK_CONFIG_ERROR(set, "--set", 1, 25, "scheduler.fiber_backend");
  CHECK(std::string{set.what()} ==
        "--set:1:25: key 'scheduler.fiber_backend': unknown value 'fibers' (expected context or boost_fiber)");
}

}  // namespace
}  // namespace weft::sim
