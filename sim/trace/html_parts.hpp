#pragma once
// The pieces html_timeline.cpp assembles (internal to sim/trace): lane geometry, the two SVGs
// (lane labels and timeline) and the inline style and script. Text goes in through xml_escape
// (wellformed_text.hpp).

#include <string>
#include <string_view>
#include <vector>

#include "sim/trace/layout.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim::html {

// Vertical geometry in pixels: the time axis, then per device a title row and its lanes.
struct Geometry {
  static constexpr double axis = 24, title = 18, lane = 18, box_inset = 2;
  std::vector<double> lane_top;    // per lane
  std::vector<double> device_top;  // per device: its title row
  double height = 0;
  double lane_middle(int index) const { return lane_top[static_cast<std::size_t>(index)] + lane / 2; }
};

Geometry geometry(const TraceLayout& layout, int devices);
std::string labels_svg(const TraceLayout& layout, const Geometry& geometry, int devices);
std::string timeline_svg(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout,
                         const Geometry& geometry);
std::string_view style();
std::string_view script();

}  // namespace weft::sim::html
