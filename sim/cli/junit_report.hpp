#pragma once
// A sweep's JUnit XML report, for CI: a <testcase> per failing seed (its verdict, the first line
// of what happened, the command that replays it), one for the seeds as expected, and, when the
// sweep did not run every seed it was asked to, an <error> testcase that says how many seeds ran
// of how many planned and why it stopped, so that a CI timeout never reads as green.
//
// Written as the sweep goes, in constant memory however many seeds fail: the failures' testcases
// go to an unnamed scratch file beside the report (the testsuite's counts, which come first in
// the XML, are known only at the end), and finish() writes the report whole (WholeFile: a
// temporary file renamed into place). A sweep killed before finish() leaves no report and no
// scratch file.

#include <cstdint>
#include <string>

#include "sim/request/request.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

class JunitReport {
 public:
  // Throws ConfigError naming `path` when its folder cannot be written.
  JunitReport(std::string path, const Request& request, std::string program);
  JunitReport(const JunitReport&) = delete;
  JunitReport& operator=(const JunitReport&) = delete;
  ~JunitReport();

  void add_failure(const SeedOutcome& failure);
  void finish(const SweepSummary& summary);

 private:
  std::string path_;
  const Request& request_;
  std::string program_;
  std::string suite_;  // the scenario's name, escaped
  int scratch_ = -1;   // the failures' testcases so far
  std::uint64_t failures_ = 0;
};

}  // namespace weft::sim
