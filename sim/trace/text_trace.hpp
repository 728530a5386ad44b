#pragma once
// The trace as text, for terminals and diffs: a header (with the schedule string, so the file
// itself says how to replay it), one line per operation in step order
// (step, actor, what it did, its source line; a wait also names the signals whose units it
// consumed), then where the failure points. No pointers, paths or times: one seed gives one text.

#include <string>

#include "sim/trace/recorder.hpp"
#include "sim/trace/trace_header.hpp"

namespace weft::sim {

std::string text_trace(const TraceRecorder& recorder, const TraceHeader& header);

}  // namespace weft::sim
