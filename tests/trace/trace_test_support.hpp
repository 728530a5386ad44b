#pragma once
// Helpers of the trace tests: run weft's CLI with trace files and read them back.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../cli/cli_runner.hpp"

namespace weft::testing {

// A fresh path in the temporary folder (each test its own name: ctest runs them in parallel).
inline std::string trace_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("weft_trace_test_" + name)).string();
}

// `weft run ARGS... OPTION FILE`, returning what FILE holds; the run must give its expected verdict.
inline std::string traced_run(std::vector<std::string> args, const std::string& option, const std::string& name) {
  const std::string path = trace_path(name);
  std::filesystem::remove(path);
  args.insert(args.begin(), "run");
  args.push_back(option);
  args.push_back(path);
  const auto result = run_weft(args);
  INFO(result.out << result.err);
  REQUIRE(result.status == 0);
  return file_text(path);
}

// The first seed at which the early-reuse all-gather races (a real race found by weft).
inline std::string racing_seed() {
  for (int seed = 0; seed < 200; ++seed) {
    const auto result =
        run_weft({"run", "scenarios/ring_all_gather_early_reuse_race.toml", "--seed", std::to_string(seed)});
    if (result.status == 0) return std::to_string(seed);
  }
  FAIL("no racing seed in 0..199");
  return "";
}

}  // namespace weft::testing
