#pragma once
// What a sweep writes besides its report: a JSON line per failing seed and a summary line
// (JsonLinesFile, whole_output.hpp: each line whole, the file renamed into place when the sweep
// ends, interrupted or not), a JUnit XML file for CI, and a progress line on a terminal.

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/request/request.hpp"
#include "sim/cli/whole_output.hpp"  // JsonLinesFile
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

std::string failure_json(const Request& request, const SeedOutcome& outcome, const std::string& program);
std::string summary_json(const Request& request, const SweepOptions& options, const SweepSummary& summary);

// Writes the JUnit XML report whole: to a temporary file, then renamed into place.
void write_junit(const std::string& path, const Request& request, const SweepSummary& summary,
                 const std::vector<SeedOutcome>& failures, const std::string& program);

// "seeds 1200/10000, 3100 executions/s, 1 failure, ETA 3s" on stderr, only on a terminal.
class ProgressLine {
 public:
  explicit ProgressLine(std::uint64_t planned);
  void update(std::uint64_t done, std::uint64_t failures);
  void clear();

 private:
  bool enabled_;
  std::uint64_t planned_;
  double started_;
  double last_;
};

}  // namespace weft::sim
