#pragma once
// The pieces html_timeline.cpp assembles (internal to sim/trace): the page's data as JSON
// (html_data.cpp), and the inline style and script, which live in sim/trace/assets/ and are
// compiled in by the build (timeline_assets.cpp.in). Text goes in through xml_escape
// (wellformed_text.hpp).

#include <string>
#include <string_view>

#include "sim/trace/layout.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim::html {

// Everything the script draws from, as one JSON text safe inside a <script> element.
std::string timeline_data(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout);
// assets/timeline.css.
std::string_view style();
// assets/timeline_view.js followed by assets/timeline_controls.js: one function that reads the
// data, draws and wires the controls.
std::string_view script();

}  // namespace weft::sim::html
