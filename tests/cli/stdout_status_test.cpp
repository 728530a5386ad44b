// A command whose stdout cannot be written (here /dev/full: every write fails with ENOSPC)
// exits 2 with a message on stderr, whatever it found: its printed findings are lost, and the
// status must not claim otherwise (it was 0 for every command).

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::run_weft;
using weft::testing::Streams;
using weft::testing::WeftProcess;

TEST_CASE("Every command exits 2 when its stdout cannot be written", "[cli][hardening]") {
  const auto jsonl = (std::filesystem::temp_directory_path() / "weft_stdout_status.jsonl").string();
  REQUIRE(run_weft({"sweep", "right_permute", "--seeds", "0..3", "--jsonl", jsonl}).status == 0);
  const std::vector<std::vector<std::string>> commands{
      {"list"},
      {"run", "right_permute"},
      {"replay", "right_permute", "--seed", "1"},
      {"run", "scenarios/barrier_deadlock.toml", "--trace-text", "-"},
      {"sweep", "right_permute", "--seeds", "0..3"},
      {"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--shrink-budget", "0"},
      {"explore", "scenarios/readers6.toml"},
      {"merge", jsonl},
      {"bench", "--quick"},
  };
  for (const auto& command : commands) {
    CAPTURE(command);
    WeftProcess weft(command, Streams{"/dev/full"});
    CHECK(weft.wait().status == 2);
    CHECK(weft.err().find("weft: cannot write to stdout") != std::string::npos);
  }
  // The same commands with a stdout that takes their output keep their status.
  WeftProcess fine({"list"}, Streams{"/dev/null"});
  CHECK(fine.wait().status == 0);
  std::filesystem::remove(jsonl);
}
