#include "sim/trace/causality.hpp"

#include <map>

namespace weft::sim {

using Kind = TraceEvent::Kind;
using scheduler::Actor;

Causality::Causality(const TraceRecorder& recorder, bool accumulate)
    : recorder_(recorder),
      predecessors_(recorder.records().size()),
      successors_(recorder.records().size()),
      core_records_(static_cast<std::size_t>(recorder.devices() * recorder.cores_per_device())) {
  const auto& records = recorder.records();
  std::map<std::pair<int, int>, std::vector<std::size_t>> unacquired;  // accumulate: (semaphore id, core) -> signals
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TraceRecord& record = records[i];
    if (record.actor.kind == Actor::Kind::core) {
      auto& mine = core_records_[record.actor.index];
      if (!mine.empty()) add(i, mine.back(), CausalEdge::Kind::program);
      mine.push_back(i);
    } else if (const TracedDma* dma = recorder.dma(record.dma)) {
      const std::size_t before = dma->before(i);
      if (before != no_record && before < i) add(i, before, CausalEdge::Kind::program);
    }
    if (record.kind == Kind::wait) {
      if (accumulate) {
        auto& signals = unacquired[{record.semaphore_id, record.target_core}];
        for (std::size_t signal : signals) add(i, signal, CausalEdge::Kind::wake);
        signals.clear();
      } else {
        for (const WakeEdge& edge : recorder.woken_by(i)) add(i, edge.signal, CausalEdge::Kind::wake);
      }
    }
    if (accumulate && record.signals() && record.amount > 0)
      unacquired[{record.semaphore_id, record.target_core}].push_back(i);
  }
}

void Causality::add(std::size_t to, std::size_t from, CausalEdge::Kind kind) {
  predecessors_[to].push_back({from, kind});
  successors_[from].push_back({to, kind});
}

int Causality::owner_core(std::size_t record) const {
  const TraceRecord& found = recorder_.records()[record];
  if (found.actor.kind == Actor::Kind::core) return static_cast<int>(found.actor.index);
  const TracedDma* dma = recorder_.dma(found.dma);
  if (dma == nullptr || dma->start == no_record) return -1;
  return static_cast<int>(recorder_.records()[dma->start].actor.index);
}

CausalEvent Causality::event_of(const model::FailureSite& site) const {
  const auto& records = recorder_.records();
  CausalEvent event;
  if (site.who.kind == model::Accessor::Kind::core) {
    const auto& mine = core_records_[static_cast<std::size_t>(site.who.index)];
    for (std::size_t index : mine) {
      if (records[index].step == site.step && records[index].kind != Kind::finish) event.record = index;
      if (records[index].step < site.step) event.before = {index};
    }
  } else if (const TracedDma* dma = recorder_.dma(site.who.index)) {
    if (const std::size_t phase = dma->record_of(records, site); phase != no_record) {
      event.record = phase;
    } else {  // the access failed: it came right after the DMA's last record
      const std::size_t before = !site.who.is_write ? dma->start : dma->chunks.empty() ? dma->read : dma->chunks.back();
      if (before != no_record) event.before = {before};
    }
  }
  if (event.record != no_record) event.before.clear();
  return event;
}

std::vector<bool> Causality::reach_back(std::vector<std::size_t> frontier) const {
  std::vector<bool> seen(predecessors_.size(), false);
  for (std::size_t index : frontier) seen[index] = true;
  while (!frontier.empty()) {
    const std::size_t index = frontier.back();
    frontier.pop_back();
    for (const CausalEdge& edge : predecessors_[index]) {
      if (seen[edge.record]) continue;
      seen[edge.record] = true;
      frontier.push_back(edge.record);
    }
  }
  return seen;
}

std::vector<bool> Causality::past(const CausalEvent& event) const {
  if (event.record == no_record) return reach_back(event.before);
  std::vector<bool> seen = reach_back({event.record});
  seen[event.record] = false;
  return seen;
}

std::vector<bool> Causality::future(std::size_t record) const {
  std::vector<bool> seen(successors_.size(), false);
  std::vector<std::size_t> frontier{record};
  seen[record] = true;
  while (!frontier.empty()) {
    const std::size_t index = frontier.back();
    frontier.pop_back();
    for (const CausalEdge& edge : successors_[index]) {
      if (seen[edge.record]) continue;
      seen[edge.record] = true;
      frontier.push_back(edge.record);
    }
  }
  return seen;
}

}  // namespace weft::sim
