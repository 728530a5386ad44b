#pragma once
// `weft sweep`: many seeds of one scenario (sim/sweep), reported as they are released in seed
// order (a JSON line and a JUnit testcase per failing seed, a report on stdout per failing seed
// whose signature is new, signature.hpp; all streamed: memory stays flat however many seeds
// fail), then the first failure shrunk, with --keep-going the findings (each signature's count),
// and a summary line.
//
// Exit status: 0 every planned seed ran and gave the expected verdict; 1 some seed did not; 4 the
// sweep stopped early (SIGINT, SIGTERM, --time-budget) before every planned seed ran, and none of
// those that ran failed. An incomplete sweep says so on stdout, in its JSON summary
// ("complete": false, "incomplete": why) and in its JUnit report (an error testcase).

#include <cstddef>
#include <optional>
#include <string>

#include "sim/cli/exit_status.hpp"
#include "sim/request/request.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

struct SweepFiles {
  std::optional<std::string> jsonl;  // --jsonl F
  std::optional<std::string> junit;  // --junit F
  std::size_t shrink_budget = 1000;  // re-executions to shrink the first failure; 0: no shrinking
  bool verbose = false;              // --verbose: a report for every failure, not one per signature
};

int command_sweep(const Request& request, const std::string& program, const SweepOptions& options,
                  const SweepFiles& files);

}  // namespace weft::sim
