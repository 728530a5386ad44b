#pragma once
// Helpers of the explanation tests: a scenario file resolved as the CLI would, its first
// failing seed, and the line of its kernel's source that holds a piece of code (so that tests
// name "the line that must move" by its code, not by a number that drifts).

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/explain/explain.hpp"
#include "sim/request/request.hpp"

namespace weft::testing {

inline sim::Request scenario_request(const std::string& file, std::vector<std::string> sets = {}) {
  static const auto registry = scenarios::builtin_scenarios();
  sim::RequestArguments arguments;
  arguments.scenario = std::string(WEFT_SOURCE_DIR) + "/" + file;
  arguments.sets = std::move(sets);
  return sim::resolve_request(arguments, registry);
}

// The first execution among seeds 0..199 with this verdict.
inline sim::ExecutionResult first_with(sim::Simulation& simulation, model::Verdict verdict, std::uint64_t from = 0) {
  for (std::uint64_t seed = from; seed < 200; ++seed) {
    sim::ExecutionResult result = simulation.run_seed(seed);
    if (result.verdict == verdict) return result;
  }
  FAIL("no seed in " << from << "..199 gives " << model::to_string(verdict));
  return {};
}

// "file.cpp:N" for the first line of scenarios/kernels/FILE holding `code`.
inline std::string kernel_line(const std::string& file, const std::string& code) {
  std::ifstream source(std::string(WEFT_SOURCE_DIR) + "/scenarios/kernels/" + file);
  int number = 0;
  for (std::string line; std::getline(source, line);) {
    ++number;
    if (line.find(code) != std::string::npos) return file + ":" + std::to_string(number);
  }
  FAIL("no line of " << file << " holds " << code);
  return "";
}

// "line N" of "file.cpp:N", as explanations name lines of the kernel's own file.
inline std::string short_line(const std::string& line) { return "line " + line.substr(line.rfind(':') + 1); }

inline std::string all_text(const sim::Explanation& explanation) { return sim::format_explanation(explanation); }

}  // namespace weft::testing
