#include "sim/trace/chrome_json.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "sim/trace/describe.hpp"
#include "sim/trace/layout.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

using nlohmann::json;
using Kind = TraceEvent::Kind;

// Ties at one time: metadata, then span ends, span begins, slices, counters, instants, flows.
enum Rank {
  metadata_rank,
  end_rank,
  begin_rank,
  slice_rank,
  counter_rank,
  instant_rank,
  flow_start_rank,
  flow_end_rank
};

json time_value(double t) {
  if (t == std::floor(t)) return static_cast<std::int64_t>(t);
  return t;
}

class ChromeTrace {
 public:
  ChromeTrace(const TraceRecorder& recorder, const TraceHeader& header)
      : recorder_(recorder), header_(header), layout_(recorder, header) {}

  std::string write() {
    metadata();
    kernels();
    dmas();
    operations();
    counters();
    flows();
    failure();
    std::stable_sort(events_.begin(), events_.end(),
                     [](const Event& a, const Event& b) { return a.ts != b.ts ? a.ts < b.ts : a.rank < b.rank; });
    std::string text = "{\"otherData\":" + json_text(other_data()) + ",\"traceEvents\":[\n";
    for (std::size_t i = 0; i < events_.size(); ++i)
      text += json_text(events_[i].body) + (i + 1 < events_.size() ? ",\n" : "\n");
    return text + "]}\n";
  }

 private:
  struct Event {
    double ts;
    int rank;
    json body;
  };

  // Process and thread ids: device d is pid d + 1, its lane r tid (d + 1) * 10000 + r, so no
  // id is 0 (which trace viewers treat as the idle process) and thread ids never repeat.
  static int pid_of(int device) { return device + 1; }
  static int tid_of(const Lane& lane) { return pid_of(lane.device) * 10000 + lane.row; }

  json on_lane(int lane, std::string_view phase, double ts) const {
    const Lane& where = layout_.lanes()[static_cast<std::size_t>(lane)];
    return {{"ph", phase}, {"pid", pid_of(where.device)}, {"tid", tid_of(where)}, {"ts", time_value(ts)}};
  }

  void add(double ts, Rank rank, json body) { events_.push_back({ts, rank, std::move(body)}); }

  json other_data() const {
    return {{"scenario", header_.scenario},
            {"machine", header_.machine},
            {"options", header_.options},
            {"run", header_.run},
            {"steps", header_.steps},
            {"schedule", header_.schedule},
            {"verdict", header_.verdict},
            {"expected", header_.expected},
            {"details", header_.details},
            {"reproduce", header_.reproduce},
            {"description", header_.description},
            {"explanation", header_.explanation},
            {"time_unit", "1 us = 1 scheduler step"}};
  }

  void metadata() {
    for (int device = 0; device < recorder_.devices(); ++device) {
      const std::string name = model::words::device(device);
      add(0, metadata_rank,
          {{"ph", "M"}, {"pid", pid_of(device)}, {"name", "process_name"}, {"args", {{"name", name}}}});
      add(0, metadata_rank,
          {{"ph", "M"}, {"pid", pid_of(device)}, {"name", "process_sort_index"}, {"args", {{"sort_index", device}}}});
    }
    for (const Lane& lane : layout_.lanes()) {
      json base = {{"ph", "M"}, {"pid", pid_of(lane.device)}, {"tid", tid_of(lane)}};
      json name = base, order = base;
      name["name"] = "thread_name";
      name["args"] = {{"name", lane.name}};
      order["name"] = "thread_sort_index";
      order["args"] = {{"sort_index", lane.row}};
      add(0, metadata_rank, std::move(name));
      add(0, metadata_rank, std::move(order));
    }
  }

  void kernels() {
    const int cores = recorder_.devices() * recorder_.cores_per_device();
    for (int core = 0; core < cores; ++core) {
      const int lane = layout_.core_lane(core);
      json begin = on_lane(lane, "B", 0);
      begin["name"] = "kernel";
      begin["cat"] = "kernel";
      add(0, begin_rank, std::move(begin));
      add(layout_.kernel_end(core), end_rank, on_lane(lane, "E", layout_.kernel_end(core)));
    }
  }

  void dmas() {
    for (const DmaSpan& span : layout_.dma_spans()) {
      const TracedDma* dma = recorder_.dma(span.dma);
      const TraceRecord& start = recorder_.records()[dma->start];
      const double end = span.slot.start + span.slot.width;
      json begin = on_lane(span.slot.lane, "B", span.slot.start);
      begin["name"] = model::words::dma(span.dma) + " to " + model::words::device(span.device_to);
      begin["cat"] = "dma";
      begin["args"] = {{"details", record_details(recorder_, start)},
                       {"line", start.line},
                       {"start_step", start.step},
                       {"landed", dma->write != no_record}};
      add(span.slot.start, begin_rank, std::move(begin));
      add(end, end_rank, on_lane(span.slot.lane, "E", end));
    }
  }

  void operations() {
    const auto& records = recorder_.records();
    for (std::size_t i = 0; i < records.size(); ++i) {
      const TraceRecord& record = records[i];
      const Slot& slot = layout_.slot(i);
      if (slot.lane < 0 || record.kind == Kind::finish) continue;
      json slice = on_lane(slot.lane, "X", slot.start);
      slice["dur"] = time_value(slot.width);
      slice["name"] = record_title(recorder_, record);
      slice["cat"] = kind_name(record.kind);
      slice["args"] = {{"step", record.step},
                       {"actor", scheduler::to_string(record.actor)},
                       {"details", record_details(recorder_, record)},
                       {"line", record.line}};
      add(slot.start, slice_rank, std::move(slice));
    }
  }

  void counters() {
    std::map<std::pair<int, int>, bool> seen;
    const auto& records = recorder_.records();
    const int cpd = recorder_.cores_per_device();
    for (std::size_t i = 0; i < records.size(); ++i) {
      const TraceRecord& record = records[i];
      if (!record.signals() && record.kind != Kind::wait) continue;
      const double ts = layout_.slot(i).start;
      const std::string name =
          semaphore_name(recorder_, record.semaphore_id) + ", " + cell_name(record.target_core, cpd);
      json counter = {{"ph", "C"}, {"pid", pid_of(record.target_core / cpd)}, {"name", name}};
      if (!seen[{record.semaphore_id, record.target_core}] && ts > 0) {
        counter["ts"] = 0;
        counter["args"] = {{"count", 0}};
        add(0, counter_rank, counter);
      }
      seen[{record.semaphore_id, record.target_core}] = true;
      counter["ts"] = time_value(ts);
      counter["args"] = {{"count", record.count}};
      add(ts, counter_rank, std::move(counter));
    }
  }

  void flow(const char* category, const std::string& name, std::size_t from, std::size_t to) {
    const Slot& a = layout_.slot(from);
    const Slot& b = layout_.slot(to);
    if (a.lane < 0 || b.lane < 0) return;
    const double out = a.start + a.width / 4, in = b.middle();
    json start = on_lane(a.lane, "s", out), finish = on_lane(b.lane, "f", in);
    for (json* end : {&start, &finish}) {
      (*end)["id"] = next_flow_;
      (*end)["cat"] = category;
      (*end)["name"] = name;
      (*end)["bp"] = "e";
    }
    ++next_flow_;
    add(out, flow_start_rank, std::move(start));
    add(in, flow_end_rank, std::move(finish));
  }

  void flows() {
    const auto& records = recorder_.records();
    for (const WakeEdge& edge : recorder_.edges())
      flow("wake", "wake " + semaphore_name(recorder_, records[edge.wait].semaphore_id), edge.signal, edge.wait);
    for (const TracedDma& dma : recorder_.dmas()) {
      if (dma.start == no_record) continue;
      if (dma.read != no_record) flow("dma", model::words::dma(dma.id), dma.start, dma.read);
      for (const std::size_t chunk : dma.chunks) flow("dma", model::words::dma(dma.id), dma.start, chunk);
    }
  }

  void failure() {
    for (const FailureMark& mark : layout_.marks()) {
      const double at = mark.slot.middle();
      if (mark.record == no_record) {  // a blocked wait, or an access that failed: show where it stood
        json slice = on_lane(mark.slot.lane, "X", mark.slot.start);
        slice["dur"] = time_value(mark.slot.width);
        slice["name"] = header_.sites_blocked ? "blocked" : "failed access";
        slice["cat"] = "failure";
        slice["args"] = {{"site", mark.label}};
        add(mark.slot.start, slice_rank, std::move(slice));
      }
      json instant = on_lane(mark.slot.lane, "i", at);
      instant["s"] = "t";
      instant["name"] = header_.verdict + ": " + mark.label;
      instant["cat"] = "failure";
      add(at, instant_rank, std::move(instant));
    }
    if (header_.verdict == "ok") return;
    const double at = layout_.marks().empty() ? layout_.columns() - 1 : layout_.marks().front().slot.start;
    add(at, instant_rank,
        {{"ph", "i"},
         {"s", "g"},
         {"pid", pid_of(0)},
         {"tid", pid_of(0) * 10000},
         {"ts", time_value(at)},
         {"name", "verdict: " + header_.verdict},
         {"cat", "failure"},
         {"args", {{"details", header_.details}}}});
  }

  const TraceRecorder& recorder_;
  const TraceHeader& header_;
  TraceLayout layout_;
  std::vector<Event> events_;
  int next_flow_ = 0;
};

}  // namespace

std::string chrome_trace_json(const TraceRecorder& recorder, const TraceHeader& header) {
  return ChromeTrace(recorder, header).write();
}

}  // namespace weft::sim
