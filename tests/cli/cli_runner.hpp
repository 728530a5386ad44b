#pragma once
// Runs weft's command line in-process, from the source tree, capturing what it prints.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "file_text.hpp"
#include "scenarios/registry.hpp"
#include "sim/cli/cli.hpp"

namespace weft::testing {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

inline Outcome run_weft(std::vector<std::string> args) {
  static const auto registry = weft::scenarios::builtin_scenarios();
  args.insert(args.begin(), "weft");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(WEFT_SOURCE_DIR);
  const int status = weft::sim::run_cli(static_cast<int>(argv.size()), argv.data(), registry);
  std::filesystem::current_path(cwd);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {status, out.str(), err.str()};
}

inline std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("weft_cli_test_" + name);
  std::ofstream(path) << text;
  return path.string();
}

// The rest of the line after the first `prefix` in `text`.
inline std::string line_after(const std::string& text, const std::string& prefix) {
  const auto at = text.find(prefix);
  REQUIRE(at != std::string::npos);
  const auto start = at + prefix.size();
  return text.substr(start, text.find('\n', start) - start);
}

}  // namespace weft::testing
