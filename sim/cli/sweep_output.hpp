#pragma once
// A sweep's JSON lines (JsonLinesFile, whole_output.hpp: each line whole, the file renamed into
// place when the sweep ends, interrupted or not): a header line that says which sweep this is,
// a line per failing seed in seed order, then a summary line that says how far it got.
//
// The header names the sweep by the fields `weft merge` checks before it joins shards
// (sweep_identity_keys: scenario, config digest, strategy, expected verdict, seed range, keep
// going) and this shard ("I/N") with its planned seed count; the summary repeats them. So a file
// cut short (a killed sweep's F.partial: a header and whole failure lines) still says which shard
// of which sweep it holds. docs/sweeping.md lists every field.

#include <array>
#include <string>
#include <string_view>

#include "sim/cli/schedule_argument.hpp"
#include "sim/request/request.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

// In the order merge compares them: the digest, which covers the strategy and the scenario too,
// last, so that a difference is named by its most telling key.
inline constexpr std::array<std::string_view, 6> sweep_identity_keys{"scenario", "strategy",   "expected",
                                                                     "seeds",    "keep_going", "config_digest"};

std::string header_json(const Request& request, const SweepOptions& options);
// `schedule`: the failure's schedule, written as "schedule" (the string) or, when it is too long
// for one argument, as "schedule_file" (the file that holds it).
std::string failure_json(const Request& request, const SeedOutcome& outcome, const std::string& program,
                         const ScheduleArgument& schedule);
std::string summary_json(const Request& request, const SweepOptions& options, const SweepSummary& summary);

// Why an incomplete sweep stopped and how far it got, in one line: "interrupted (SIGINT or
// SIGTERM) after 1200 of 10000 seeds; seeds from 1200 on did not run". For stdout, the JSON
// summary and the JUnit error alike.
std::string incomplete_note(const SweepSummary& summary);

}  // namespace weft::sim
