#pragma once
// The subcommands behind the CLI, each printing to stdout and returning the exit status.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/plugin/catalog.hpp"
#include "sim/request/request.hpp"
#include "sim/cli/trace_output.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

struct SweepFiles {
  std::optional<std::string> jsonl;  // --jsonl F
  std::optional<std::string> junit;  // --junit F
  std::size_t shrink_budget = 1000;  // re-executions to shrink the first failure; 0: no shrinking
};

// Every scenario of the catalog with where it comes from, then the scenario files and configs here.
int command_list(const Catalog& catalog);
// `traces`: the trace files to write of the execution (none: it runs unrecorded).
int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed,
                const TraceFiles& traces = {});
int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule,
                            const TraceFiles& traces = {});
int command_sweep(const Request& request, const std::string& program, const SweepOptions& options,
                  const SweepFiles& files);

}  // namespace weft::sim
