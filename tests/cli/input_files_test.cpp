// Inputs that are not regular files, at the command line: each exits 2 naming the file, at once
// (a FIFO with no writer does not block; /proc/self/mem was exit 3, "internal error").

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using weft::testing::run_weft;

TEST_CASE("A config or scenario that is not a regular file exits 2 naming it", "[cli][hardening]") {
  const auto fifo = (std::filesystem::temp_directory_path() / "weft_cli_test_input.fifo").string();
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"run", "right_permute", "--config", "/proc/self/mem"}, "/proc/self/mem: cannot read the file: reading failed"},
      {{"run", "right_permute", "--config", fifo},
       fifo + ": cannot read the file: it is not a regular file (it is a FIFO)"},
      {{"run", fifo}, fifo + ": cannot read the file: it is not a regular file (it is a FIFO)"},
      {{"sweep", "/dev/zero", "--seeds", "0..3"},
       "/dev/zero: cannot read the file: it is not a regular file (it is a device)"},
  };
  for (const auto& [args, expected] : cases) {
    CAPTURE(args);
    const auto result = run_weft(args);
    CHECK(result.status == 2);
    CHECK(result.err.find(expected) != std::string::npos);
    CHECK(result.err.find("internal error") == std::string::npos);
  }
  std::filesystem::remove(fifo);
}
