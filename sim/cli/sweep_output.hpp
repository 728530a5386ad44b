#pragma once
// A sweep's JSON lines (JsonLinesFile, whole_output.hpp: each line whole, the file renamed into
// place when the sweep ends, interrupted or not): a line per failing seed, then a summary line
// that says how far the sweep got. docs/sweeping.md lists the fields.

#include <string>

#include "sim/request/request.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

std::string failure_json(const Request& request, const SeedOutcome& outcome, const std::string& program);
std::string summary_json(const Request& request, const SweepOptions& options, const SweepSummary& summary);

// Why an incomplete sweep stopped and how far it got, in one line: "interrupted (SIGINT or
// SIGTERM) after 1200 of 10000 seeds; seeds from 1200 on did not run". For stdout, the JSON
// summary and the JUnit error alike.
std::string incomplete_note(const SweepSummary& summary);

}  // namespace weft::sim
