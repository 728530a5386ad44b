#include "sim/explain/leftovers.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/explain/phrases.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

using scheduler::Actor;

std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < 8; ++i) text += (i == 0 ? "" : ", ") + items[i];
  if (items.size() > 8) text += " and " + std::to_string(items.size() - 8) + " more";
  return text;
}

std::string home_line(const TraceRecorder& recorder) {
  for (const TraceRecord& record : recorder.records())
    if (!record.line.empty()) return record.line;
  return "";
}

// When a core's kernel returned: "returned at step 40", or "never returned".
std::string returned(const TraceRecorder& recorder, int core) {
  for (const TraceRecord& record : recorder.records())
    if (record.kind == TraceEvent::Kind::finish && static_cast<int>(record.actor.index) == core)
      return "returned at step " + std::to_string(record.step);
  return "never returned";
}

}  // namespace

Explanation explain_leak(const TraceRecorder& recorder) {
  Explanation out;
  const Phrases words(recorder, home_line(recorder));
  const auto& records = recorder.records();
  // (semaphore id, signalling line, by a DMA phase) -> the cells and units left
  std::map<std::tuple<int, std::string, bool>, std::vector<std::string>> left;
  std::map<std::tuple<int, std::string, bool>, std::size_t> example;
  for (const Unconsumed& unit : recorder.unconsumed()) {
    const TraceRecord& signal = records[unit.signal];
    const auto key = std::tuple{signal.semaphore_id, signal.line, signal.actor.kind != Actor::Kind::core};
    left[key].push_back(words.core(signal.target_core) + " (" + std::to_string(unit.units) + " by " +
                        words.who(signal) + " at step " + std::to_string(signal.step) + ")");
    example.emplace(key, unit.signal);
  }
  if (left.empty()) return out;
  out.title = "where the leftover units were signalled";
  for (const auto& [key, cells] : left) {
    const TraceRecord& signal = records[example.at(key)];
    const std::string sent = std::get<2>(key) ? "the completion signals of DMAs started at " + words.at(signal.line)
                                              : "the signal at " + words.at(signal.line);
    out.why.push_back(semaphore_name(recorder, std::get<0>(key)) + ": units of " + sent +
                      " were never waited for, on " + std::to_string(cells.size()) +
                      (cells.size() == 1 ? " cell: " : " cells: ") + listed(cells));
    out.fixes.push_back({signal.line, std::get<2>(key) ? "wait for the DMAs started at " + words.at(signal.line) +
                                                             " before the kernel returns"
                                                       : "wait for the units signalled at " + words.at(signal.line) +
                                                             " before the kernel returns, or do not send them"});
  }
  for (const Unconsumed& unit : recorder.unconsumed()) out.focus.push_back(unit.signal);
  return out;
}

Explanation explain_in_flight(const TraceRecorder& recorder) {
  Explanation out;
  const Phrases words(recorder, home_line(recorder));
  const auto& records = recorder.records();
  std::map<std::string, std::vector<std::string>> by_line;  // start line -> DMAs
  std::map<std::string, std::string> scopes_of;             // start line -> the scope of a scoped buffer it copies
  for (const TracedDma& dma : recorder.dmas()) {
    if (dma.write != no_record || dma.start == no_record) continue;
    const TraceRecord& start = records[dma.start];
    const int starter = static_cast<int>(start.actor.index);
    by_line[start.line].push_back(
        model::words::dma(dma.id) + " by " + words.who(start) + " at step " + std::to_string(start.step) + " (" +
        (dma.read == no_record ? "its read never ran" : "read at step " + std::to_string(records[dma.read].step)) +
        (dma.chunks.empty() ? "" : ", " + landed_words(dma)) + "; " + words.who(start) + " " +
        returned(recorder, starter) + ")");
    for (const int buffer : {start.buffer, start.target_buffer})
      if (buffer >= 0)
        if (const model::SourceLine scope = recorder.buffers()[static_cast<std::size_t>(buffer)].scope; scope.line > 0)
          scopes_of[start.line] = model::to_string(scope);
    out.focus.push_back(dma.start);
    if (dma.read != no_record) out.focus.push_back(dma.read);
  }
  if (by_line.empty()) return out;
  out.title = "where the DMAs in flight started";
  for (const auto& [line, dmas] : by_line) {
    out.why.push_back("started at " + words.at(line) + " and never waited for: " + listed(dmas));
    const auto scope = scopes_of.find(line);
    out.fixes.push_back(
        {line, "wait for the DMA started at " + words.at(line) + " (its .wait()) " +
                   (scope == scopes_of.end() ? "before the kernel returns"
                                             : "inside the scope of run_scoped at " + words.at(scope->second) +
                                                   ", before it ends: its buffer is freed there")});
  }
  std::sort(out.focus.begin(), out.focus.end());
  return out;
}

}  // namespace weft::sim
