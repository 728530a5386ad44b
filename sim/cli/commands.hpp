#pragma once
// The subcommands list, run and replay, each printing to stdout and returning the exit status
// (sweep, merge and explore have files of their own).

#include <cstdint>
#include <optional>
#include <string>

#include "sim/plugin/catalog.hpp"
#include "sim/request/request.hpp"
#include "sim/cli/trace_output.hpp"

namespace weft::sim {

// Every scenario of the catalog with where it comes from, then the scenario files and configs here.
int command_list(const Catalog& catalog);
// `traces`: the trace files to write of the execution (none: it runs unrecorded).
int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed,
                const TraceFiles& traces = {});
// `schedule_word`: a schedule string, or @FILE to read it from FILE.
int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule_word,
                            const TraceFiles& traces = {});

}  // namespace weft::sim
