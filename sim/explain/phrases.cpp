#include "sim/explain/phrases.hpp"

#include "sim/trace/describe.hpp"

namespace weft::sim {

using Kind = TraceEvent::Kind;

std::string file_of(const std::string& line) { return line.substr(0, line.rfind(':')); }

std::string landed_words(const TracedDma& dma) {
  if (dma.chunks.empty()) return "";
  return std::to_string(dma.landed) + " of its " + std::to_string(dma.bytes) + " bytes landed";
}

Phrases::Phrases(const TraceRecorder& recorder, const std::string& home)
    : recorder_(recorder), home_file_(file_of(home)) {}

std::string Phrases::at(const std::string& line) const {
  if (line.empty()) return "an unknown line";
  if (file_of(line) == home_file_) return "line " + line.substr(line.rfind(':') + 1);
  return line;
}

std::string Phrases::core(int global_core) const { return core_name(global_core, recorder_.cores_per_device()); }

std::string Phrases::who(const TraceRecord& record) const {
  if (record.actor.kind == scheduler::Actor::Kind::core) return core(static_cast<int>(record.actor.index));
  return model::words::dma(record.dma);
}

std::string Phrases::access(const TraceRecord& record) {
  switch (record.kind) {
    case Kind::load:
      return "the load";
    case Kind::store:
      return "the store";
    case Kind::dma_read:
      return "the read";
    case Kind::dma_write:
      return "the write";
    default:
      return "the " + std::string(kind_name(record.kind));
  }
}

std::string Phrases::where(const TraceRecord& record) const {
  return "at " + at(record.line) + ", step " + std::to_string(record.step);
}

std::string Phrases::dma(int id) const {
  const std::string number = model::words::dma(id);
  const TracedDma* traced = recorder_.dma(id);
  if (traced == nullptr || traced->start == no_record) return number;
  const std::string& origin = recorder_.records()[traced->start].origin;
  return origin.empty() ? number : number + " (" + origin + ")";
}

std::string Phrases::signal(const TraceRecord& signal, std::string units) const {
  if (!units.empty()) units += " of ";
  const std::string semaphore = semaphore_name(recorder_, signal.semaphore_id);
  if (signal.actor.kind == scheduler::Actor::Kind::core)
    return units + "the signal of " + semaphore + " by " + who(signal) + " " + where(signal);
  const std::string phase = signal.kind == Kind::dma_read ? "read" : "write";
  const TracedDma* dma = recorder_.dma(signal.dma);
  const bool chunk = signal.kind == Kind::dma_write && dma != nullptr && signal.amount < dma->bytes;
  const std::string of =
      chunk ? "a chunk of " + std::to_string(signal.amount) + " of the " + std::to_string(dma->bytes) + " bytes of "
            : "";
  const std::string origin = signal.origin.empty() ? "" : signal.origin + ", ";
  return units + "the completion of " + of + model::words::dma(signal.dma) + "'s " + phase + " (" + origin + semaphore +
         ", step " + std::to_string(signal.step) + ")";
}

}  // namespace weft::sim
