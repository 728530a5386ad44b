// The HTML timeline's data: one JSON object in a <script type="application/json"> element,
// which the page's script draws from (sim/trace/assets/timeline_*.js). Columnar arrays indexed
// by record keep a 64-device, 25,000-step run to about two megabytes; strings (source lines,
// details, labels) are interned once and named by index.

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "sim/trace/describe.hpp"
#include "sim/trace/html_parts.hpp"

namespace weft::sim::html {
namespace {

using Json = nlohmann::ordered_json;

int half_steps(double steps) { return static_cast<int>(steps * 2 + 0.5); }

// A record's offset or width in half steps: a whole number for nearly every box, else to a
// 32nd of a half step (the write chunks of an eager DMA share half a step).
Json fine_half_steps(double steps) {
  const double half = std::round(steps * 2 * 32) / 32;
  if (half == std::floor(half)) return static_cast<std::int64_t>(half);
  return half;
}

class Strings {
 public:
  int operator()(const std::string& text) {
    const auto [at, added] = index_.emplace(text, static_cast<int>(list_.size()));
    if (added) list_.push_back(text);
    return at->second;
  }
  Json list() const { return list_; }

 private:
  std::map<std::string, int> index_;
  std::vector<std::string> list_;
};

Json lanes(const TraceLayout& layout) {
  Json out = Json::array();
  for (const Lane& lane : layout.lanes())
    out.push_back({lane.device, lane.kind == Lane::Kind::core ? 0 : 1, lane.name, lane.global_core});
  return out;
}

// Per record, one column a field: where it is drawn (lane, offset and width in half steps) and
// what the script's tooltip says of it (assets/timeline_controls.js composes the words the text
// listing uses, sim/trace/describe.hpp, from these fields: sending each record's sentence would
// make a large run's page several times larger).
Json records(const TraceRecorder& recorder, const TraceLayout& layout, Strings& strings) {
  std::map<std::string, Json> columns;
  for (const char* name : {"lane", "offset", "width", "kind", "stepDelta", "core", "line", "buffer", "rect",
                           "targetBuffer", "targetRect", "semaphore", "cell", "amount", "count", "dma", "origin"})
    columns[name] = Json::array();
  std::uint64_t previous_step = 0;
  const auto rect = [&](int buffer, const model::Rect& value) {
    return buffer < 0 ? -1 : strings(model::to_string(value));
  };
  const auto& all = recorder.records();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const TraceRecord& record = all[i];
    const Slot& slot = layout.slot(i);
    columns["lane"].push_back(slot.lane);
    // Small numbers, for a small page: the step as the change from the record before, the
    // start as half steps after the step's own start.
    columns["offset"].push_back(fine_half_steps(slot.start - static_cast<double>(record.step)));
    columns["width"].push_back(fine_half_steps(slot.width));
    columns["kind"].push_back(static_cast<int>(record.kind));
    columns["stepDelta"].push_back(static_cast<std::int64_t>(record.step - previous_step));
    previous_step = record.step;
    columns["core"].push_back(record.actor.kind == scheduler::Actor::Kind::core ? static_cast<int>(record.actor.index)
                                                                                : -1);
    columns["line"].push_back(strings(record.line));
    columns["buffer"].push_back(record.buffer);
    columns["rect"].push_back(rect(record.buffer, record.rect));
    columns["targetBuffer"].push_back(record.target_buffer);
    columns["targetRect"].push_back(rect(record.target_buffer, record.target_rect));
    columns["semaphore"].push_back(record.semaphore_id < 0 ? -1
                                                           : strings(semaphore_name(recorder, record.semaphore_id)));
    columns["cell"].push_back(record.target_core);
    columns["amount"].push_back(record.amount);
    columns["count"].push_back(record.count);
    columns["dma"].push_back(record.dma);
    columns["origin"].push_back(record.origin.empty() ? -1 : strings(record.origin));  // a Pallas pipeline's DMA
  }
  Json out;
  for (auto& [name, column] : columns) out[name] = std::move(column);
  return out;
}

Json buffers(const TraceRecorder& recorder) {
  Json out = Json::array();
  for (const model::BufferInfo& info : recorder.buffers()) out.push_back(buffer_name(info));
  return out;
}

Json kinds() {
  Json out = Json::array();
  for (int kind = 0; kind <= static_cast<int>(TraceEvent::Kind::finish); ++kind) {
    std::string name(kind_name(static_cast<TraceEvent::Kind>(kind)));
    for (char& c : name) c = c == '_' ? '-' : c;
    out.push_back(name);
  }
  return out;
}

Json flat_wakes(const TraceRecorder& recorder) {
  Json out = Json::array();
  for (const WakeEdge& edge : recorder.edges()) {
    out.push_back(edge.signal);
    out.push_back(edge.wait);
    out.push_back(edge.units);
  }
  return out;
}

// DMAs between devices: the write record and the destination core's lane.
Json flat_landings(const TraceRecorder& recorder, const TraceLayout& layout) {
  Json out = Json::array();
  for (const DmaSpan& span : layout.dma_spans()) {
    const TracedDma* dma = recorder.dma(span.dma);
    if (dma->write == no_record || layout.lanes()[static_cast<std::size_t>(span.slot.lane)].device == span.device_to)
      continue;
    out.push_back(dma->write);
    out.push_back(layout.core_lane(recorder.records()[dma->write].target_core));
  }
  return out;
}

// Per DMA span: lane, start and width (half steps), and its start record.
Json flat_spans(const TraceRecorder& recorder, const TraceLayout& layout) {
  Json out = Json::array();
  for (const DmaSpan& span : layout.dma_spans()) {
    out.push_back(span.slot.lane);
    out.push_back(half_steps(span.slot.start));
    out.push_back(half_steps(span.slot.width));
    out.push_back(recorder.dma(span.dma)->start);
  }
  return out;
}

Json lives(const TraceRecorder& recorder, const TraceLayout& layout) {
  Json out = Json::array();
  const int cores = recorder.devices() * recorder.cores_per_device();
  for (int core = 0; core < cores; ++core) out.push_back(half_steps(layout.kernel_end(core)));
  return out;
}

Json marks(const TraceLayout& layout) {
  Json out = Json::array();
  for (const FailureMark& mark : layout.marks())
    out.push_back({{"site", mark.site},
                   {"lane", mark.slot.lane},
                   {"start", half_steps(mark.slot.start)},
                   {"width", half_steps(mark.slot.width)},
                   {"record", mark.record == no_record ? -1 : static_cast<long long>(mark.record)},
                   {"label", mark.label}});
  return out;
}

}  // namespace

std::string timeline_data(const TraceRecorder& recorder, const TraceHeader& header, const TraceLayout& layout) {
  Strings strings;
  Json data;
  data["columns"] = static_cast<std::uint64_t>(layout.columns());
  data["devices"] = recorder.devices();
  data["coresPerDevice"] = recorder.cores_per_device();
  data["verdict"] = header.verdict;
  data["blocked"] = header.sites_blocked;
  data["kinds"] = kinds();
  data["lanes"] = lanes(layout);
  data["records"] = records(recorder, layout, strings);
  data["wakes"] = flat_wakes(recorder);
  data["landings"] = flat_landings(recorder, layout);
  data["spans"] = flat_spans(recorder, layout);
  data["buffers"] = buffers(recorder);
  data["lives"] = lives(recorder, layout);
  data["marks"] = marks(layout);
  data["chain"] = header.chain;
  data["focus"] = header.focus;
  data["strings"] = strings.list();
  std::string text = data.dump();
  // Inside <script>, "</" could end the element: JSON allows "\/" for "/".
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3))
    text.replace(at, 2, "<\\/");
  return text;
}

}  // namespace weft::sim::html
