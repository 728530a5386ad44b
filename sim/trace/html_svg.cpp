// The SVGs of the HTML timeline: lane labels, and the timeline itself (axis, lanes, DMA spans,
// operation boxes, arrows, failure marks). Horizontal coordinates are percentages of the
// timeline's width (see html_timeline.hpp), vertical ones pixels from Geometry.

#include <algorithm>
#include <cstdio>

#include "sim/trace/describe.hpp"
#include "sim/trace/html_parts.hpp"

namespace weft::sim::html {
namespace {

using Kind = TraceEvent::Kind;

std::string trimmed(const char* text) {
  std::string value = text;
  if (value.find('.') == std::string::npos) return value;
  while (value.back() == '0') value.pop_back();
  if (value.back() == '.') value.pop_back();
  return value;
}

// The CSS class of an operation: its kind name with dashes ("dma-start").
std::string css_kind(Kind kind) {
  std::string name(kind_name(kind));
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string px(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return trimmed(text);
}

class Drawing {
 public:
  Drawing(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout, const Geometry& geometry)
      : recorder_(recorder), header_(header), layout_(layout), geometry_(geometry) {}

  std::string draw() {
    out_ = "<svg id=\"timeline\" width=\"" + px(layout_.columns() * 10) + "\" height=\"" + px(geometry_.height) +
           "\" data-columns=\"" + px(layout_.columns()) + "\" data-show=\"1\">\n";
    out_ += "<defs><marker id=\"head\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" markerHeight=\"6\" "
            "orient=\"auto\"><path d=\"M0,0L8,4L0,8z\"/></marker>"
            "<marker id=\"head-dma\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" markerHeight=\"6\" "
            "orient=\"auto\"><path d=\"M0,0L8,4L0,8z\"/></marker></defs>\n";
    bands();
    axis();
    spans();
    operations();
    wakes();
    dma_arrows();
    marks();
    return out_ + "</svg>";
  }

 private:
  std::string x(double step) const {
    char text[32];
    std::snprintf(text, sizeof text, "%.5f", 100.0 * step / layout_.columns());
    return trimmed(text) + "%";
  }

  std::string box(const Slot& slot, double inset) const {
    const double top = geometry_.lane_top[static_cast<std::size_t>(slot.lane)] + inset;
    return " x=\"" + x(slot.start) + "\" y=\"" + px(top) + "\" width=\"" + x(slot.width) + "\" height=\"" +
           px(Geometry::lane - 2 * inset) + "\"";
  }

  std::string line(double x1, double y1, double x2, double y2) const {
    return " x1=\"" + x(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + x(x2) + "\" y2=\"" + px(y2) + "\"";
  }

  static std::string title(const std::string& text) { return "<title>" + xml_escape(text) + "</title>"; }

  void bands() {
    out_ += "<g id=\"lanes\">\n";
    const int devices = recorder_.devices();
    for (int device = 0; device < devices; ++device) {
      const double top = geometry_.device_top[static_cast<std::size_t>(device)];
      const double bottom = device + 1 < devices ? geometry_.device_top[static_cast<std::size_t>(device + 1)] : geometry_.height;
      out_ += "<rect class=\"band band" + std::to_string(device % 2) + "\" x=\"0\" y=\"" + px(top) +
              "\" width=\"100%\" height=\"" + px(bottom - top) + "\"/>\n";
    }
    for (std::size_t lane = 0; lane < layout_.lanes().size(); ++lane) {
      const Lane& info = layout_.lanes()[lane];
      const double bottom = geometry_.lane_top[lane] + Geometry::lane;
      out_ += "<line class=\"lane lane-" + std::string(info.kind == Lane::Kind::core ? "core" : "dma") +
              "\" data-lane=\"d" + std::to_string(info.device) + " " + info.name + "\"" + line(0, bottom, layout_.columns(), bottom) +
              "/>\n";
    }
    out_ += "</g>\n";
  }

  void axis() {
    out_ += "<g id=\"axis\">\n";
    const auto steps = static_cast<std::uint64_t>(layout_.columns());
    for (std::uint64_t t = 0; t < steps; ++t) {
      const char* level = t % 1000 == 0 ? "k1000" : t % 100 == 0 ? "k100" : t % 10 == 0 ? "k10" : "k1";
      if (std::string_view(level) == "k1" && steps > 2000) continue;  // only every 10th at this length
      out_ += "<line class=\"tick " + std::string(level) + "\"" +
              line(static_cast<double>(t), Geometry::axis - 6, static_cast<double>(t), geometry_.height) + "/>";
      out_ += "<text class=\"" + std::string(level) + "\" x=\"" + x(static_cast<double>(t) + 0.5) + "\" y=\"14\">" +
              std::to_string(t) + "</text>\n";
    }
    out_ += "</g>\n";
  }

  void spans() {
    out_ += "<g id=\"spans\">\n";
    const int cores = recorder_.devices() * recorder_.cores_per_device();
    for (int core = 0; core < cores; ++core) {
      const int lane = layout_.core_lane(core);
      const double middle = geometry_.lane_middle(lane), end = layout_.kernel_end(core);
      out_ += "<line class=\"life\"" + line(0, middle, end, middle) + "/>";
      if (end < layout_.columns())
        out_ += "<line class=\"finish\"" + line(end, middle - 6, end, middle + 6) + ">" +
                title(core_name(core, recorder_.cores_per_device()) + ": kernel returned at step " + px(end - 1)) + "</line>";
      out_ += "\n";
    }
    for (const DmaSpan& span : layout_.dma_spans()) {
      const TraceRecord& start = recorder_.records()[recorder_.dma(span.dma)->start];
      out_ += "<rect class=\"span\"" + box(span.slot, 4) + ">" +
              title("dma " + std::to_string(span.dma) + " (started step " + std::to_string(start.step) + " by " +
                    scheduler::to_string(start.actor) + ")\n" + record_details(recorder_, start) + "\n" + start.line) +
              "</rect>\n";
    }
    out_ += "</g>\n";
  }

  std::string tip(std::size_t index) const {
    const TraceRecord& record = recorder_.records()[index];
    std::string text = record_title(record) + " | step " + std::to_string(record.step) + ", " + scheduler::to_string(record.actor);
    if (record.actor.kind == scheduler::Actor::Kind::core)
      text += " (" + core_name(static_cast<int>(record.actor.index), recorder_.cores_per_device()) + ")";
    text += "\n" + record_details(recorder_, record);
    if (!record.line.empty()) text += "\n" + record.line;
    std::string woken;
    for (const WakeEdge& edge : recorder_.woken_by(index)) {
      const TraceRecord& signal = recorder_.records()[edge.signal];
      woken += (woken.empty() ? "\nwoken by: step " : ", step ") + std::to_string(signal.step) + " " + scheduler::to_string(signal.actor);
    }
    return text + woken;
  }

  void operations() {
    std::vector<bool> hit(recorder_.records().size(), false);
    for (const FailureMark& mark : layout_.marks())
      if (mark.record != no_record) hit[mark.record] = true;
    out_ += "<g id=\"ops\">\n";
    for (std::size_t i = 0; i < recorder_.records().size(); ++i) {
      const TraceRecord& record = recorder_.records()[i];
      const Slot& slot = layout_.slot(i);
      if (slot.lane < 0 || record.kind == Kind::finish) continue;
      out_ += "<rect class=\"op op-" + std::string(css_kind(record.kind)) + (hit[i] ? " hit" : "") + "\"" + box(slot, Geometry::box_inset) + ">" + title(tip(i)) +
              "</rect>\n";
    }
    out_ += "</g>\n";
  }

  void wakes() {
    out_ += "<g id=\"wakes\">\n";
    const auto& records = recorder_.records();
    for (const WakeEdge& edge : recorder_.edges()) {
      const Slot& from = layout_.slot(edge.signal);
      const Slot& to = layout_.slot(edge.wait);
      if (from.lane < 0 || to.lane < 0) continue;
      const TraceRecord& signal = records[edge.signal];
      const TraceRecord& wait = records[edge.wait];
      out_ += "<line class=\"wake\"" + line(from.middle(), geometry_.lane_middle(from.lane), to.start + to.width * 0.3,
                                             geometry_.lane_middle(to.lane)) +
              " marker-end=\"url(#head)\">" +
              title(semaphore_name(wait.semaphore_id) + ": " + std::to_string(edge.units) + " from step " +
                    std::to_string(signal.step) + " " + scheduler::to_string(signal.actor) + " woke the wait of step " +
                    std::to_string(wait.step) + " " + scheduler::to_string(wait.actor)) +
              "</line>\n";
    }
    out_ += "</g>\n";
  }

  void dma_arrows() {
    out_ += "<g id=\"dma-arrows\">\n";
    for (const DmaSpan& span : layout_.dma_spans()) {
      const TracedDma* dma = recorder_.dma(span.dma);
      if (dma->write == no_record || layout_.lanes()[static_cast<std::size_t>(span.slot.lane)].device == span.device_to) continue;
      const TraceRecord& write = recorder_.records()[dma->write];
      const Slot& from = layout_.slot(dma->write);
      const int to = layout_.core_lane(write.target_core);
      out_ += "<line class=\"dma-arrow\"" + line(from.middle(), geometry_.lane_middle(from.lane), from.start + from.width,
                                                  geometry_.lane_middle(to)) +
              " marker-end=\"url(#head-dma)\">" +
              title("dma " + std::to_string(span.dma) + " lands on device " + std::to_string(span.device_to) + " at step " +
                    std::to_string(write.step) + ": " + record_details(recorder_, write)) +
              "</line>\n";
    }
    out_ += "</g>\n";
  }

  void marks() {
    out_ += "<g id=\"marks\">\n";
    for (const FailureMark& mark : layout_.marks()) {
      const double middle = mark.slot.middle();
      out_ += "<line class=\"markline\"" + line(middle, Geometry::axis, middle, geometry_.height) + "/>";
      out_ += "<rect class=\"mark" + std::string(mark.record == no_record ? " unapplied" : "") + "\" id=\"mark-" +
              std::to_string(mark.site) + "\" data-site=\"" + std::to_string(mark.site) + "\"" + box(mark.slot, 0.5) + ">" +
              title(header_.verdict + ": " + mark.label + (mark.record == no_record ? "" : "\n\n" + tip(mark.record))) +
              "</rect>\n";
    }
    out_ += "</g>\n";
  }

  const TraceRecorder& recorder_;
  const TraceHeader& header_;
  const TraceLayout& layout_;
  const Geometry& geometry_;
  std::string out_;
};

}  // namespace

Geometry geometry(const TraceLayout& layout, int devices) {
  Geometry geometry;
  geometry.device_top.assign(static_cast<std::size_t>(devices), 0);
  double y = Geometry::axis;
  int device = -1;
  for (const Lane& lane : layout.lanes()) {
    for (; device < lane.device; y += Geometry::title) geometry.device_top[static_cast<std::size_t>(++device)] = y;
    geometry.lane_top.push_back(y);
    y += Geometry::lane;
  }
  geometry.height = y + 4;
  return geometry;
}

std::string labels_svg(const TraceLayout& layout, const Geometry& geometry, int devices) {
  std::string out = "<svg id=\"labels\" width=\"120\" height=\"" + px(geometry.height) + "\">\n";
  out += "<text class=\"axis-label\" x=\"6\" y=\"14\">step</text>\n";
  for (int device = 0; device < devices; ++device)
    out += "<text class=\"device-label\" x=\"6\" y=\"" + px(geometry.device_top[static_cast<std::size_t>(device)] + 13) +
           "\">device " + std::to_string(device) + "</text>\n";
  for (std::size_t lane = 0; lane < layout.lanes().size(); ++lane)
    out += "<text class=\"lane-label\" x=\"18\" y=\"" + px(geometry.lane_top[lane] + 13) + "\">" +
           xml_escape(layout.lanes()[lane].name) + "</text>\n";
  return out + "</svg>";
}

std::string timeline_svg(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout,
                         const Geometry& geometry) {
  return Drawing(recorder, header, layout, geometry).draw();
}

}  // namespace weft::sim::html
