#include "sim/trace/layout.hpp"

#include <algorithm>

#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;

bool by_core(const TraceRecord& record) { return record.actor.kind == scheduler::Actor::Kind::core; }

}  // namespace

TraceLayout::TraceLayout(const TraceRecorder& recorder, const TraceHeader& header)
    : columns_(static_cast<double>(header.steps + 1)),
      cores_per_device_(recorder.cores_per_device()),
      kernel_end_(static_cast<std::size_t>(recorder.devices() * recorder.cores_per_device()), columns_) {
  place_dmas(recorder);
  place_records(recorder);
  place_marks(recorder, header);
}

int TraceLayout::core_lane(int global_core) const {
  if (global_core < 0 || static_cast<std::size_t>(global_core) >= core_lanes_.size()) return -1;
  return core_lanes_[static_cast<std::size_t>(global_core)];
}

const DmaSpan* TraceLayout::span_of(int dma) const {
  const auto at =
      std::lower_bound(spans_.begin(), spans_.end(), dma, [](const DmaSpan& s, int v) { return s.dma < v; });
  return at != spans_.end() && at->dma == dma ? &*at : nullptr;
}

void TraceLayout::place_dmas(const TraceRecorder& recorder) {
  const auto& records = recorder.records();
  const int devices = recorder.devices();
  std::vector<std::vector<double>> free_at(static_cast<std::size_t>(devices));  // per device, per DMA lane
  std::vector<int> row_of_span;
  for (const TracedDma& dma : recorder.dmas()) {
    if (dma.start == no_record) continue;
    const TraceRecord& start = records[dma.start];
    const int device = static_cast<int>(start.actor.index) / cores_per_device_;
    DmaSpan span;
    span.dma = dma.id;
    span.device_to = start.target_core / cores_per_device_;
    span.slot.start = static_cast<double>(start.step);
    const double end = dma.write != no_record ? static_cast<double>(records[dma.write].step + 1) : columns_;
    span.slot.width = end - span.slot.start;
    auto& lanes = free_at[static_cast<std::size_t>(device)];
    auto lane = std::find_if(lanes.begin(), lanes.end(), [&](double free) { return free <= span.slot.start; });
    if (lane == lanes.end()) lane = lanes.insert(lanes.end(), 0.0);
    *lane = end;
    span.slot.lane = device;  // fixed up below, once every device's lane count is known
    row_of_span.push_back(static_cast<int>(lane - lanes.begin()));
    spans_.push_back(span);
  }
  std::vector<int> first_dma_lane(static_cast<std::size_t>(devices));
  for (int device = 0; device < devices; ++device) {
    for (int core = 0; core < cores_per_device_; ++core) {
      core_lanes_.push_back(static_cast<int>(lanes_.size()));
      lanes_.push_back(
          {Lane::Kind::core, device, core, device * cores_per_device_ + core, model::words::core(device, core)});
    }
    first_dma_lane[static_cast<std::size_t>(device)] = static_cast<int>(lanes_.size());
    const auto count = free_at[static_cast<std::size_t>(device)].size();
    for (std::size_t k = 0; k < count; ++k)
      lanes_.push_back({Lane::Kind::dma, device, cores_per_device_ + static_cast<int>(k), -1,
                        model::words::dma_lane(static_cast<int>(k))});
  }
  for (std::size_t i = 0; i < spans_.size(); ++i)
    spans_[i].slot.lane = first_dma_lane[static_cast<std::size_t>(spans_[i].slot.lane)] + row_of_span[i];
}

void TraceLayout::place_records(const TraceRecorder& recorder) {
  const auto& records = recorder.records();
  slots_.resize(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TraceRecord& record = records[i];
    Slot& slot = slots_[i];
    slot.start = static_cast<double>(record.step);
    if (by_core(record)) {
      slot.lane = core_lane(static_cast<int>(record.actor.index));
      if (record.kind == Kind::finish) {
        slot.start += 1;
        slot.width = 0;
        kernel_end_[record.actor.index] = slot.start;
      }
      continue;
    }
    if (record.kind == Kind::dma_write) continue;  // below, with the other chunks of its write
    if (const DmaSpan* span = span_of(record.dma)) slot = phase_slot(*span, record.step, false);
  }
  // A write's chunks (in step order), a run of them per step: each takes its place in that
  // step's share.
  for (const TracedDma& dma : recorder.dmas()) {
    const DmaSpan* span = span_of(dma.id);
    if (span == nullptr) continue;
    for (std::size_t first = 0, end = 0; first < dma.chunks.size(); first = end) {
      const std::uint64_t step = records[dma.chunks[first]].step;
      while (end < dma.chunks.size() && records[dma.chunks[end]].step == step) ++end;
      for (std::size_t k = first; k < end; ++k)
        slots_[dma.chunks[k]] = phase_slot(*span, step, true, k - first, end - first);
    }
  }
}

Slot TraceLayout::phase_slot(const DmaSpan& span, std::uint64_t step, bool write, std::size_t chunk,
                             std::size_t chunks) {
  // A phase in its DMA's start step is an eager one: both phases share that step, half each,
  // and the write's chunks share its half.
  Slot slot{span.slot.lane, static_cast<double>(step), 1};
  if (slot.start == span.slot.start) {
    slot.width = 0.5;
    if (write) {
      slot.width = 0.5 / static_cast<double>(chunks);
      slot.start += 0.5 + slot.width * static_cast<double>(chunk);
    }
  }
  return slot;
}

void TraceLayout::place_marks(const TraceRecorder& recorder, const TraceHeader& header) {
  const auto& records = recorder.records();
  for (std::size_t i = 0; i < header.sites.size(); ++i) {
    const model::FailureSite& site = header.sites[i];
    FailureMark mark;
    mark.site = i;
    mark.label = site_label(site, cores_per_device_);
    const bool core = site.who.kind == model::Accessor::Kind::core;
    const DmaSpan* span = core ? nullptr : span_of(site.who.index);
    if (core) {
      mark.slot = {core_lane(site.who.index), static_cast<double>(site.step), 1};
    } else if (span != nullptr) {
      mark.slot = phase_slot(*span, site.step, site.who.is_write);
    }
    if (mark.slot.lane < 0) continue;
    if (header.sites_blocked) mark.slot = {mark.slot.lane, columns_ - 1, 1};
    if (!header.sites_blocked && core) {
      for (std::size_t r = 0; r < records.size() && mark.record == no_record; ++r)
        if (by_core(records[r]) && static_cast<int>(records[r].actor.index) == site.who.index &&
            records[r].step == site.step && records[r].kind != Kind::finish)
          mark.record = r;
    } else if (!header.sites_blocked) {
      const TracedDma* dma = recorder.dma(site.who.index);
      if (dma != nullptr) mark.record = dma->record_of(records, site);
    }
    if (mark.record != no_record) mark.slot = slots_[mark.record];
    marks_.push_back(mark);
  }
}

}  // namespace weft::sim
