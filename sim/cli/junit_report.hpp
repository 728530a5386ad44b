#pragma once
// A sweep's JUnit XML report, for CI (its pieces of XML, shared with an exploration's report, are
// junit_xml.hpp's): a <testcase> per finding signature (signature.hpp), not per
// seed, so that a bug that 10,000 seeds hit reads as one failing test, not 10,000. Each is named
// by its signature, with the `file` and `line` of the place the signature names first (when it
// names one) and the `time` of its first seed's execution. Its <failure> is its first seed's
// (type: the verdict; message: the first line of what happened, or that the seed did not replay
// identically; text: the command that replays the seed, then all of what happened), and its
// <system-out> lists the seeds that hit it in seed order: the first 1000, then "and N more".
// Then a testcase for the seeds as expected, and, when the sweep did not run every seed it was
// asked to, an <error> testcase that says how many seeds ran of how many planned and why it
// stopped, so that a CI timeout never reads as green.
//
// The testsuite's counts are of testcases, as JUnit readers count them: `tests` is the number of
// signatures, plus one for the seeds as expected, plus one when the sweep is incomplete;
// `failures` is the number of signatures (each lists its failing seeds; the seeds-as-expected
// testcase's name counts the others); `time` is the whole sweep's.
//
// Memory grows with the distinct signatures, not with the failing seeds: per signature a count
// and its first 1000 seeds. The opening of each signature's testcase and its <failure> (whose
// text, a kernel's message, can be any length) wait in an unnamed scratch file beside the report,
// and finish() writes the report whole (WholeFile: a temporary file renamed into place). A sweep
// killed before finish() leaves no report and no scratch file.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

  // A failing seed, in seed order, under its finding_signature.
  void add_failure(const SeedOutcome& failure, const std::string& signature);
  void finish(const SweepSummary& summary);

  static constexpr std::size_t seeds_listed = 1000;  // per signature; the others are counted

 private:
  struct Case {                    // a signature's testcase
    std::uint64_t opening_at = 0;  // in the scratch file: its opening tag and <failure>
    std::uint64_t opening_size = 0;
    std::uint64_t seeds_hit = 0;
    std::vector<std::uint64_t> seeds;  // the first seeds_listed of them
  };

  std::string path_;
  const Request& request_;
  std::string program_;
  int scratch_ = -1;
  std::uint64_t scratch_size_ = 0;
  std::vector<Case> cases_;                   // in order of first seed
  std::map<std::string, std::size_t> index_;  // signature -> its case
  std::uint64_t failing_seeds_ = 0;
};

}  // namespace weft::sim
