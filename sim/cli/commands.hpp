#pragma once
// The subcommands list, run and replay, each printing to stdout and returning the exit status
// (sweep, merge and explore have files of their own).

#include <cstdint>
#include <optional>
#include <string>

#include "sim/request/request.hpp"
#include "sim/cli/trace_output.hpp"

namespace weft::sim {

int command_list(const ScenarioRegistry& registry);
// `traces`: the trace files to write of the execution (none: it runs unrecorded).
int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed,
                const TraceFiles& traces = {});
// `schedule_word`: a schedule string, or @FILE to read it from FILE.
int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule_word,
                            const TraceFiles& traces = {});

}  // namespace weft::sim
