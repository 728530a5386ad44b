// [dma] chunk_bytes: 0 (the whole copy in one step) by default; any integer >= 0 from a file or
// --set; a negative or non-integer value is an error that names file, line, column and key.
#include <catch2/catch.hpp>
#include <string>

#include "config_test_support.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/set_assignment.hpp"

namespace weft::sim {
namespace {

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

TEST_CASE("dma.chunk_bytes is 0 by default and takes any integer >= 0", "[config]") {
  CHECK(Config{}.machine.dma_chunk_bytes == 0);
  CHECK(default_config().machine.dma_chunk_bytes == 0);
  CHECK(from_text("[dma]\nchunk_bytes = 1_024\n").machine.dma_chunk_bytes == 1024);
  CHECK(from_text("[dma]\nexecution = \"eager\"\nchunk_bytes = 0\n").machine.dma_chunk_bytes == 0);
  CHECK(from_set("dma.chunk_bytes=1").machine.dma_chunk_bytes == 1);
  CHECK(from_set("dma.chunk_bytes=4096").machine.dma_chunk_bytes == 4096);
}

TEST_CASE("A bad dma.chunk_bytes is an error at the value", "[config]") {
  const ConfigError negative = config_error_from([] { from_text("[dma]\nchunk_bytes = -8\n"); });
  CHECK_CONFIG_ERROR(negative, "test.toml", 2, 15, "dma.chunk_bytes");
  CHECK(std::string{negative.what()} ==
        "test.toml:2:15: key 'dma.chunk_bytes': value -8 is out of range (expected at least 0)");

  const ConfigError fraction = config_error_from([] { from_text("[dma]\n  chunk_bytes = 1.5\n"); });
  CHECK_CONFIG_ERROR(fraction, "test.toml", 2, 17, "dma.chunk_bytes");
  CHECK(fraction.message == "expected an integer, found a floating-point number");

  const ConfigError word = config_error_from([] { from_text("[dma]\nchunk_bytes = \"1k\"\n"); });
  CHECK_CONFIG_ERROR(word, "test.toml", 2, 15, "dma.chunk_bytes");
  CHECK(word.message == "expected an integer, found a string");

  const ConfigError set = config_error_from([] { from_set("dma.chunk_bytes=-1"); });
  CHECK_CONFIG_ERROR(set, "--set", 1, 17, "dma.chunk_bytes");
  CHECK(set.message == "value -1 is out of range (expected at least 0)");
}

}  // namespace
}  // namespace weft::sim
