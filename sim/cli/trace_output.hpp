#pragma once
// The trace files of `weft run` and `weft replay`: --trace F.json (Chrome trace event format,
// for ui.perfetto.dev), --html F.html (a self-contained timeline), --trace-text F (a step-by-step
// listing; "-" prints it to stdout after the report). The execution is recorded only when one
// of them is given.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sim/engine/simulation.hpp"
#include "sim/explain/explanation.hpp"
#include "sim/request/request.hpp"
#include "sim/trace/recorder.hpp"
#include "sim/trace/trace_header.hpp"

namespace weft::sim {

struct TraceFiles {
  std::optional<std::string> json;  // --trace F.json
  std::optional<std::string> html;  // --html F.html
  std::optional<std::string> text;  // --trace-text F, "-" for stdout
  bool any() const { return json || html || text; }
  // The first file asked for (not stdout): long schedules are written beside it.
  std::optional<std::string> first_file() const {
    if (json) return json;
    if (html) return html;
    return text && *text != "-" ? text : std::nullopt;
  }
};

// `schedule_word`: the execution's schedule as the word after --schedule (ScheduleArgument).
TraceHeader trace_header(const Request& request, const ExecutionResult& result, const std::string& program,
                         std::optional<std::uint64_t> seed, const std::string& schedule_word,
                         const Explanation& explanation = {});
// Writes every requested file; throws ConfigError naming a file that cannot be written.
void write_traces(const TraceFiles& files, const TraceRecorder& recorder, const TraceHeader& header, std::ostream& out);

}  // namespace weft::sim
