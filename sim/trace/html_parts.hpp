#pragma once
// The pieces html_timeline.cpp assembles (internal to sim/trace): the page's data as JSON
// (html_data.cpp), and the inline style and script. Text goes in through xml_escape
// (wellformed_text.hpp).

#include <string>
#include <string_view>

#include "sim/trace/layout.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim::html {

// Everything the script draws from, as one JSON text safe inside a <script> element.
std::string timeline_data(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout);
std::string_view style();
// The script, in two halves of one function (written one after the other).
std::string_view script_view();
std::string_view script_controls();

}  // namespace weft::sim::html
