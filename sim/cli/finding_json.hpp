#pragma once
// The fields of a finding's JSON line that a sweep's lines (sweep_output.hpp) and an
// exploration's (explore_output.hpp) share, written by one function so that the two cannot
// drift apart: the verdict against the expected one, what happened (its first line, at most
// 4 KiB, cut between UTF-8 characters), the steps, the signature (signature.hpp), the sites (the
// structured finding: at most 1,000, the others counted in "sites_left_out") and the schedule
// (the string, or the file that holds one too long for an argument: schedule_argument.hpp).
// docs/sweeping.md lists every field.

#include <string>

#include <nlohmann/json.hpp>

#include "sim/cli/schedule_argument.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/request/request.hpp"

namespace weft::sim {

// Adds, in this order: verdict, expected, description (the first line of `what_happened`),
// steps, signature, sites (and sites_left_out), schedule, schedule_file or schedule_left_out.
void add_finding_fields(nlohmann::ordered_json& line, const Request& request, const ExecutionResult& result,
                        const std::string& what_happened, const std::string& signature,
                        const ScheduleArgument& schedule);

}  // namespace weft::sim
