#pragma once
// An exploration's findings for CI, in the shapes a sweep's take (docs/sweeping.md), so that the
// same readers read both:
//   - JSON lines (--jsonl F; JsonLinesFile, whole_output.hpp: written as F.partial and renamed to
//     F when the exploration ends, stopped by SIGINT, SIGTERM, its memory budget or a bound
//     included): a header line that says which exploration this is, a line per failing verdict
//     found (its first run: the fields of a sweep's failure line, finding_json.hpp, with "runs",
//     how many runs gave it, and a reproduce line by schedule instead of a seed), then a summary
//     line that says how far it got;
//   - a JUnit report (--junit F, written whole): a testcase per failing verdict, named by its
//     signature, failing when the verdict is not the expected one; a testcase for the runs that
//     were ok; a failing testcase when the scenario expects a failure that an exploration which
//     ran to its end never found; an error testcase when it stopped before its end (SIGINT,
//     SIGTERM, the memory budget), so that a CI timeout never reads as green.
//
// The summary has the estimated classes of the whole space (estimated_classes, one job only:
// class_estimate.hpp), exact once it is exhausted. Both lines carry "explore": true, and the identity of the
// exploration: the scenario, the config digest, the expected verdict, keep_going, max_executions and preemption_bound.
// `weft merge` refuses them (an exploration is not sharded: there is nothing to merge; merge.hpp).

#include <string>
#include <vector>

#include "sim/cli/explore_command.hpp"
#include "sim/cli/schedule_argument.hpp"
#include "sim/engine/explore.hpp"
#include "sim/request/request.hpp"

namespace weft::sim {

// A failing verdict of the exploration, as its outputs write it.
struct ExploreFinding {
  const FoundVerdict* found;  // its first run (or, with --jobs, the run of its least schedule)
  std::string signature;      // finding_signature of that run
  ScheduleArgument schedule;  // that run's schedule
  std::string reproduce;      // the `weft replay --schedule` line of that run
};

std::string explore_header_json(const Request& request, const ExploreArguments& arguments);
std::string explore_failure_json(const Request& request, const ExploreFinding& finding);
std::string explore_summary_json(const Request& request, const ExploreArguments& arguments, const ExploreReport& report,
                                 std::size_t failures);

// Writes the JUnit report whole (WholeFile); ConfigError naming `path` when it cannot.
void write_explore_junit(const std::string& path, const Request& request, const ExploreReport& report,
                         const std::vector<ExploreFinding>& findings);

// Why an exploration that did not run to its end stopped, in one line ("interrupted (SIGINT or
// SIGTERM) after 1200 runs"); empty when it ran to its end (exhausted, at its first failure, or
// at a bound the user gave).
std::string explore_incomplete_note(const ExploreReport& report);

}  // namespace weft::sim
