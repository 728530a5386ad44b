#include "sim/trace/html_timeline.hpp"

#include "sim/trace/html_parts.hpp"
#include "sim/trace/layout.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {

namespace {

std::string fact(const std::string& id, const std::string& name, const std::string& value_html) {
  return "<tr><th>" + name + "</th><td id=\"" + id + "\">" + value_html + "</td></tr>\n";
}

std::string header_html(const TraceHeader& header, const TraceLayout& layout) {
  const bool as_expected = header.verdict == header.expected;
  std::string out = "<header id=\"run-header\">\n<h1>weft timeline <span class=\"verdict-" +
                    std::string(header.verdict == "ok" ? "ok" : "bad") + "\">" + xml_escape(header.verdict) +
                    "</span></h1>\n";
  if (!header.description.empty()) out += "<p id=\"description\">" + xml_escape(header.description) + "</p>\n";
  out += "<table class=\"facts\">\n";
  out += fact("scenario", "scenario", xml_escape(header.scenario));
  out += fact(
      "config", "config",
      xml_escape(header.machine) + (header.options.empty() ? "" : " <code>" + xml_escape(header.options) + "</code>"));
  out += fact("seed", "run", xml_escape(header.run) + ", " + std::to_string(header.steps) + " steps");
  out += fact("verdict", "verdict",
              "<b>" + xml_escape(header.verdict) + "</b> (expected " + xml_escape(header.expected) +
                  (as_expected ? ": as expected)" : ": <b>NOT as expected</b>)"));
  out += fact("schedule", "schedule", "<code class=\"schedule\">" + xml_escape(header.schedule) + "</code>");
  out += fact("reproduce", "reproduce", "<code>" + xml_escape(header.reproduce) + "</code>");
  out += "</table>\n";
  if (!header.details.empty()) out += "<pre id=\"details\">" + xml_escape(header.details) + "</pre>\n";
  if (!header.explanation.empty()) out += "<pre id=\"explanation\">" + xml_escape(header.explanation) + "</pre>\n";
  if (!layout.marks().empty()) {
    out += "<ol id=\"sites\">\n";
    for (const FailureMark& mark : layout.marks())
      out += "<li><a class=\"site-link\" href=\"#mark-" + std::to_string(mark.site) + "\" data-site=\"" +
             std::to_string(mark.site) + "\">" + xml_escape(mark.label) + "</a></li>\n";
    out += "</ol>\n";
  }
  return out + "</header>\n";
}

std::string controls_html(bool has_marks, bool has_focus) {
  std::string out =
      "<nav id=\"controls\">\n"
      "<button id=\"zoom-out\" title=\"zoom out (-)\">&minus;</button><button id=\"zoom-in\" title=\"zoom in "
      "(+)\">+</button>"
      "<button id=\"zoom-fit\" title=\"fit the run (0)\">fit</button><button id=\"zoom-100\" title=\"10 px a "
      "step\">100%</button>"
      " <span id=\"zoom-level\"></span>\n";
  if (has_marks) out += "<button id=\"go-failure\">go to the failure</button>\n";
  if (has_focus)
    out +=
        "<label title=\"only the cores, DMAs and arrows in the causal past of the failure\"><input type=\"checkbox\" "
        "id=\"causal-view\"> causal view</label>\n";
  out +=
      "<label>lanes <input id=\"lane-filter\" placeholder=\"device 5, device 6 core 0, DMA\" title=\"show only lanes "
      "whose name has one of "
      "these words (comma-separated)\"></label>\n"
      "<label><input type=\"checkbox\" id=\"show-wakes\" checked> signal &rarr; wait</label>\n"
      "<label><input type=\"checkbox\" id=\"show-dma\" checked> DMA between devices</label>\n"
      "<span class=\"legend\">";
  for (const char* kind : {"load", "store", "signal", "wait", "read", "allocate", "dma-start", "dma-read", "dma-write"})
    out += "<i class=\"swatch op-" + std::string(kind) + "\"></i>" + kind + " ";
  return out +
         "<i class=\"swatch span\"></i>dma in flight <i class=\"swatch mark\"></i>failure <i class=\"swatch "
         "chain\"></i>broken "
         "chain</span>\n</nav>\n";
}

std::string markers() {
  std::string out = "<defs>";
  for (const char* id : {"head", "head-dma", "head-chain"})
    out += "<marker id=\"" + std::string(id) +
           "\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" "
           "markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L8,4L0,8z\"/></marker>";
  return out + "</defs>";
}

}  // namespace

std::string html_timeline(const TraceRecorder& recorder, const TraceHeader& header) {
  const TraceLayout layout(recorder, header);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width\">\n";
  out += "<title>weft: " + xml_escape(header.scenario) + ", " + xml_escape(header.run) + ": " +
         xml_escape(header.verdict) + "</title>\n<style>\n" + std::string(html::style()) +
         "</style>\n</head>\n<body>\n";
  out += header_html(header, layout);
  out += controls_html(!layout.marks().empty(), !header.focus.empty());
  out += "<div id=\"scroller\"><svg id=\"timeline\" width=\"800\" height=\"400\">" + markers() +
         "<g id=\"layer\"></g></svg><div id=\"spacer\"></div></div>\n";
  out += "<div id=\"tip\"></div>\n<script type=\"application/json\" id=\"weft-data\">" +
         html::timeline_data(recorder, header, layout) + "</script>\n";
  out += "<script>\n" + std::string(html::script()) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace weft::sim
