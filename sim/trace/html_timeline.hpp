#pragma once
// The trace as one self-contained HTML file: a header (scenario, machine and options, seed,
// schedule string, verdict, what happened, the failure sites as links) above the timeline as
// inline SVG, with a small inline script and style and nothing fetched from the network.
//
// The timeline draws TraceLayout: lanes per core and DMA lane grouped by device, a box per
// operation (hover: operation, buffer, rectangle, source line, step, the signals that woke a
// wait), DMA spans behind their phases, arrows from each signal to the waits it woke and from
// each remote DMA's landing to its destination core, and the failure sites outlined in red
// with a line across every lane; the page opens scrolled to the first site.
//
// Every horizontal coordinate is a percentage of the SVG's width, so zooming is one change of
// that width (the script's -, + and fit buttons, or the keys - + 0): thousands of steps stay
// usable, and no element is redrawn. Tick labels thin out as steps get narrow. The output
// depends only on the trace: one seed gives one byte-identical file.

#include <string>

#include "sim/trace/recorder.hpp"
#include "sim/trace/trace_header.hpp"

namespace weft::sim {

std::string html_timeline(const TraceRecorder& recorder, const TraceHeader& header);

}  // namespace weft::sim
