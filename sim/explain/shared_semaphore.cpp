#include "sim/explain/shared_semaphore.hpp"

#include <map>

#include "sim/explain/phrases.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;

bool phase_of(const TraceRecord& record, int dma) {
  return (record.kind == Kind::dma_write || record.kind == Kind::dma_read) && record.dma == dma;
}

// Whether `record` (a core's access) touches what the DMA phase `brought` wrote.
bool touches(const TraceRecord& record, const TraceRecord& brought) {
  if (brought.kind != Kind::dma_write || record.buffer < 0) return false;
  if (record.kind != Kind::load && record.kind != Kind::store) return false;
  return record.buffer == brought.target_buffer && record.rect.overlaps(brought.target_rect);
}

}  // namespace

void tell_shared_semaphore(const TraceRecorder& recorder, const Causality& causality,
                           const model::FailureSite& dma_write, const model::FailureSite& access, Explanation& out) {
  if (dma_write.who.kind != model::Accessor::Kind::dma || !dma_write.who.is_write) return;
  if (access.who.kind != model::Accessor::Kind::core) return;
  const TracedDma* dma = recorder.dma(dma_write.who.index);
  if (dma == nullptr || dma->start == no_record) return;
  const auto& records = recorder.records();
  const TraceRecord& start = records[dma->start];
  // The cell its landing signals (the landing may be the racing access, not recorded).
  const int semaphore = start.recv_semaphore_id, cell = start.target_core;
  if (!(dma_write.rect == start.target_rect) || semaphore < 0) return;  // a chunk: partial_landing.hpp
  const CausalEvent event = causality.event_of(access);
  const std::vector<bool> past = causality.past(event);
  const int core = access.who.index;
  // The core's last wait on the cell this DMA's landing signals, before the access.
  std::size_t wait = no_record;
  for (std::size_t index : causality.core_records(core)) {
    if (!past[index]) continue;
    const TraceRecord& record = records[index];
    if (record.kind == Kind::wait && record.semaphore_id == semaphore && record.target_core == cell) wait = index;
  }
  if (wait == no_record) return;
  const std::vector<WakeEdge> took = recorder.woken_by(wait);
  if (took.empty()) return;
  for (const WakeEdge& edge : took)
    if (phase_of(records[edge.signal], dma->id)) return;  // it took this DMA's units: another story
  for (std::size_t index : causality.core_records(core)) {
    if (index <= wait || !past[index]) continue;
    for (const WakeEdge& edge : took)
      if (touches(records[index], records[edge.signal])) return;  // the wait did its own copy's job
  }
  const Phrases words(recorder, start.line);
  std::map<std::string, std::int64_t> others;  // what it took, by its signaller
  std::vector<std::string> copies;             // the other copies, as the fix names them
  for (const WakeEdge& edge : took) {
    const TraceRecord& signal = records[edge.signal];
    std::string who;
    if (signal.actor.kind == scheduler::Actor::Kind::core) {
      who = "the signal by " + words.who(signal) + " at " + words.at(signal.line);
    } else {
      who = model::words::dma(signal.dma) + "'s " + (signal.kind == Kind::dma_read ? "read" : "write");
      const TracedDma* other = recorder.dma(signal.dma);
      if (other != nullptr && other->start != no_record) {
        const TraceRecord& other_start = records[other->start];
        who += " (started by " + words.who(other_start) + " at " + words.at(other_start.line) + ")";
        copies.push_back(model::words::dma(signal.dma) + " (started at " + words.at(other_start.line) + ")");
      }
    }
    others[who] += edge.units;
  }
  const TraceRecord& waited = records[wait];
  const std::string name = model::words::dma(dma->id);
  const std::string semaphore_called = semaphore_name(recorder, semaphore);
  std::string what;
  for (const auto& [who, units] : others)
    what += (what.empty() ? "" : ", ") + std::to_string(units) + " units from " + who;
  out.why.push_back(words.who(waited) + "'s wait " + words.where(waited) + " on " + semaphore_called +
                    ", the semaphore " + name + "'s write signals, took " + what + ", none from " + name);
  out.why.push_back("  a DMA semaphore counts bytes, whichever copy brought them: another copy signals " +
                    semaphore_called + " on " + words.who(waited) + ", so the wait meant for " + name +
                    " passed on its bytes, and " + words.who(waited) + " used " + name + "'s target before it landed");
  std::string fix = "give " + name + " (started at " + words.at(start.line) + ")";
  for (const std::string& copy : copies) fix += " and " + copy;
  fix += copies.empty() ? " a DMA semaphore of its own" : " DMA semaphores of their own";
  fix += ", or wait for every copy that signals " + semaphore_called + " before using any of their targets";
  out.fixes = {{start.line, fix}};
}

}  // namespace weft::sim
