#include "sim/trace/recorder.hpp"

#include <algorithm>

#include "model/naming.hpp"

namespace weft::sim {

bool TraceRecord::signals() const {
  if (semaphore_id < 0 || target_core < 0) return false;
  return kind == TraceEvent::Kind::signal || kind == TraceEvent::Kind::dma_read || kind == TraceEvent::Kind::dma_write;
}

std::size_t TracedDma::record_of(const std::vector<TraceRecord>& records, const model::FailureSite& site) const {
  if (!site.who.is_write) return read != no_record && records[read].step == site.step ? read : no_record;
  // By rectangle too: in an eager start every chunk has the start's step.
  for (std::size_t chunk : chunks)
    if (records[chunk].step == site.step && records[chunk].target_rect == site.rect) return chunk;
  return no_record;
}

std::size_t TracedDma::before(std::size_t record) const {
  if (record == read) return start;
  const auto at = std::lower_bound(chunks.begin(), chunks.end(), record);  // chunks ascend
  if (at == chunks.end() || *at != record) return no_record;
  return at == chunks.begin() ? read : *(at - 1);
}

int TraceRecorder::buffer_index(const model::Buffer* buffer) {
  if (buffer == nullptr) return -1;
  const model::BufferInfo& info = buffer->info();
  const auto key = std::tuple{static_cast<int>(info.space), info.id, info.device, info.core};
  const auto [found, added] = buffer_of_.emplace(key, static_cast<int>(buffers_.size()));
  if (added) buffers_.push_back(info);
  return found->second;
}

TracedDma& TraceRecorder::dma_slot(int id) {
  const auto at = std::lower_bound(dmas_.begin(), dmas_.end(), id, [](const TracedDma& d, int v) { return d.id < v; });
  if (at != dmas_.end() && at->id == id) return *at;
  TracedDma fresh;
  fresh.id = id;
  return *dmas_.insert(at, fresh);
}

const TracedDma* TraceRecorder::dma(int id) const {
  const auto at = std::lower_bound(dmas_.begin(), dmas_.end(), id, [](const TracedDma& d, int v) { return d.id < v; });
  return at != dmas_.end() && at->id == id ? &*at : nullptr;
}

std::vector<WakeEdge> TraceRecorder::woken_by(std::size_t wait) const {
  // Edges are appended wait by wait, in record order: the ones into `wait` are one run.
  const auto first = std::lower_bound(edges_.begin(), edges_.end(), wait,
                                      [](const WakeEdge& edge, std::size_t v) { return edge.wait < v; });
  auto last = first;
  while (last != edges_.end() && last->wait == wait) ++last;
  return {first, last};
}

const std::string& TraceRecorder::semaphore_called(int id) const {
  static const std::string none;
  const auto found = semaphores_called_.find(id);
  return found == semaphores_called_.end() ? none : found->second;
}

std::vector<Unconsumed> TraceRecorder::unconsumed() const {
  std::vector<Unconsumed> left;
  for (const auto& cell : cells_)
    cell.second.for_each([&](std::size_t signal, std::int64_t units) { left.push_back({signal, units}); });
  return left;
}

void TraceRecorder::consume(const TraceRecord& wait, std::size_t index) {
  cells_[{wait.semaphore_id, wait.target_core}].take(wait.amount, [&](std::size_t signal, std::int64_t taken, bool) {
    edges_.push_back({signal, index, taken});
  });
}

void TraceRecorder::on_event(const TraceEvent& event) {
  TraceRecord record;
  record.kind = event.kind;
  record.step = event.step;
  record.actor = event.actor;
  if (event.line.line > 0) record.line = model::to_string(event.line);
  record.buffer = buffer_index(event.buffer);
  record.rect = event.rect;
  record.target_buffer = buffer_index(event.target_buffer);
  record.target_rect = event.target_rect;
  record.semaphore_id = event.semaphore_id;
  record.target_core = event.target_core;
  record.amount = event.amount;
  record.count = event.count;
  record.dma = event.dma;
  record.recv_semaphore_id = event.recv_semaphore_id;
  if (event.origin.what != nullptr) {
    // The operand's array is the start's source for a fetch, its target for a write-back; its
    // phases' records take the start's words.
    const model::Buffer* array = event.origin.output ? event.target_buffer : event.buffer;
    const TracedDma* started = event.kind == TraceEvent::Kind::dma_start ? nullptr : dma(event.dma);
    record.origin = started != nullptr && started->start != no_record
                        ? records_[started->start].origin
                        : model::describe(event.origin, array != nullptr ? array->info().name : std::string());
  }
  const std::size_t index = records_.size();
  records_.push_back(record);

  if (record.kind == TraceEvent::Kind::allocate && record.buffer < 0 && record.semaphore_id >= 0)
    semaphores_called_.emplace(record.semaphore_id, model::called(std::string(event.name), event.line));
  if (record.signals() && record.amount > 0)
    cells_[{record.semaphore_id, record.target_core}].push(record.amount, index);
  if (record.kind == TraceEvent::Kind::wait) consume(record, index);
  if (record.dma < 0) return;
  TracedDma& dma = dma_slot(record.dma);
  if (record.kind == TraceEvent::Kind::dma_start) {
    dma.start = index;
    dma.bytes = record.amount;
    dma.origin = event.origin;
  }
  if (record.kind == TraceEvent::Kind::dma_read) dma.read = index;
  if (record.kind == TraceEvent::Kind::dma_write) {
    dma.chunks.push_back(index);
    dma.landed += record.amount;
    if (dma.landed >= dma.bytes) dma.write = index;
  }
}

}  // namespace weft::sim
