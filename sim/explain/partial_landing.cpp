#include "sim/explain/partial_landing.hpp"

#include <map>

#include "sim/explain/phrases.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using Kind = TraceEvent::Kind;

bool chunk_of(const TraceRecord& signal, int dma) { return signal.kind == Kind::dma_write && signal.dma == dma; }

}  // namespace

void tell_partial_landing(const TraceRecorder& recorder, const std::vector<bool>& past, const model::FailureSite& chunk,
                          Explanation& out) {
  if (chunk.who.kind != model::Accessor::Kind::dma || !chunk.who.is_write) return;
  const TracedDma* dma = recorder.dma(chunk.who.index);
  if (dma == nullptr || dma->start == no_record || dma->chunks.empty()) return;
  const auto& records = recorder.records();
  const TraceRecord& start = records[dma->start];
  if (chunk.rect == start.target_rect) return;  // the write phase landed whole
  // The latest wait the other access knows of that took units of this DMA's landed chunks.
  std::size_t wait = no_record;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!past[i] || records[i].kind != Kind::wait) continue;
    for (const WakeEdge& edge : recorder.woken_by(i))
      if (chunk_of(records[edge.signal], dma->id)) wait = i;
  }
  if (wait == no_record) return;
  const Phrases words(recorder, start.line);
  std::int64_t own = 0;
  std::map<std::string, std::int64_t> others;  // what else it took, by its signaller
  for (const WakeEdge& edge : recorder.woken_by(wait)) {
    const TraceRecord& signal = records[edge.signal];
    if (chunk_of(signal, dma->id)) {
      own += edge.units;
    } else {
      const bool by_core = signal.actor.kind == scheduler::Actor::Kind::core;
      others[by_core ? "the signal by " + words.who(signal) + " at " + words.at(signal.line)
                     : model::words::dma(signal.dma) + "'s " + (signal.kind == Kind::dma_read ? "read" : "write")] +=
          edge.units;
    }
  }
  const TraceRecord& waited = records[wait];
  const std::string name = model::words::dma(dma->id);
  const std::string semaphore = semaphore_name(recorder, waited.semaphore_id);
  std::string took = std::to_string(own) + " from the chunks of " + name + "'s write that had landed";
  for (const auto& [who, units] : others) took += ", " + std::to_string(units) + " from " + who;
  out.why.push_back(words.who(waited) + "'s wait " + words.where(waited) + " took " + std::to_string(waited.amount) +
                    " units of " + semaphore + ": " + took);
  out.why.push_back("  a DMA semaphore counts bytes, whichever copy or chunk brought them: that wait let " +
                    words.who(waited) + " through before " + name + "'s write of " + model::to_string(chunk.rect) +
                    " landed");
  const std::string fix = others.empty()
                              ? "wait for all " + std::to_string(dma->bytes) + " bytes of " + name + " (started at " +
                                    words.at(start.line) + ") before touching its target"
                              : "give " + name + " (started at " + words.at(start.line) +
                                    ") a DMA semaphore of its own, or wait " + "for every copy that signals " +
                                    semaphore + " before reading any of their targets";
  out.fixes.insert(out.fixes.begin(), {start.line, fix});
}

}  // namespace weft::sim
