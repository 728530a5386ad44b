// Config and scenario files that are not what they claim: a FIFO (no writer: reading would
// wait for ever), a device that never ends, /proc/self/mem (a "regular" file that cannot be read
// from its start), a file past the size limit. Each is a ConfigError naming the file, at once.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/scenario_file.hpp"
#include "sim/config/text_limits.hpp"

namespace weft::sim {
namespace {

using testing::config_error_from;
using testing::TempDir;

std::string config_file_error(const std::filesystem::path& path) {
  const ConfigError error = config_error_from([&] {
    Config config;
    apply_config_file(config, path);
  });
  CHECK_CONFIG_ERROR(error, path.string(), 0, 0, "");
  return error.message;
}

TEST_CASE("Inputs that are not regular files are refused without reading them", "[config][hardening]") {
  const TempDir dir{"not-regular"};
  const auto fifo = dir.path() / "fifo.toml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(config_file_error(fifo) == "cannot read the file: it is not a regular file (it is a FIFO)");
  CHECK(config_error_from([&] { read_scenario_file(fifo); }).message ==
        "cannot read the file: it is not a regular file (it is a FIFO)");
  CHECK(config_file_error("/dev/zero") == "cannot read the file: it is not a regular file (it is a device)");
  CHECK(config_file_error(dir.path()) == "cannot read the file: it is not a regular file (it is a folder)");
}

TEST_CASE("A file that cannot be read from its start is a ConfigError, not an internal error", "[config][hardening]") {
  CHECK(config_file_error("/proc/self/mem") == "cannot read the file: reading failed: Input/output error");
}

TEST_CASE("The size limit is checked as the bytes are read", "[config][hardening]") {
  const TempDir dir{"size-limit"};
  const auto at_limit = dir.write("at_limit.toml", "#" + std::string(detail::max_text_bytes - 2, 'x') + "\n");
  const ConfigError read_whole = config_error_from([&] {
    Config config;
    apply_config_file(config, at_limit);
  });
  CHECK_CONFIG_ERROR(read_whole, at_limit.string(), 1, 1, "");  // read, then found to hold nothing
  CHECK(read_whole.message.find("the file holds no settings") != std::string::npos);
  const auto past_limit = dir.write("past_limit.toml", "#" + std::string(detail::max_text_bytes - 1, 'x') + "\n");
  CHECK(
      config_file_error(past_limit) ==
      "cannot read the file: it is too large (more than 1048576 bytes; a config or scenario file holds at most that)");
}

}  // namespace
}  // namespace weft::sim
