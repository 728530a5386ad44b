#include "sim/trace/text_trace.hpp"

#include "sim/config/config_error.hpp"
#include "sim/trace/describe.hpp"

namespace weft::sim {
namespace {

std::string padded(std::string text, std::size_t width, bool right = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

std::string wake_sources(const TraceRecorder& recorder, std::size_t wait) {
  std::string text;
  for (const WakeEdge& edge : recorder.woken_by(wait)) {
    const TraceRecord& signal = recorder.records()[edge.signal];
    text += (text.empty() ? "  <- " : ", ") + std::string("step ") + std::to_string(signal.step) + " " +
            scheduler::to_string(signal.actor);
    if (edge.units != signal.amount)
      text += " (" + std::to_string(edge.units) + " of " + std::to_string(signal.amount) + ")";
  }
  return text;
}

// The "who" column: as wide as the longest core's name, and a space.
std::size_t who_width(const TraceRecorder& recorder) {
  const int last = recorder.devices() * recorder.cores_per_device() - 1;
  return core_name(last, recorder.cores_per_device()).size() + 2;
}

std::string operation_line(const TraceRecorder& recorder, std::size_t index) {
  const TraceRecord& record = recorder.records()[index];
  const bool core = record.actor.kind == scheduler::Actor::Kind::core;
  std::string text = padded(std::to_string(record.step), 6, true) + "  " +
                     padded(scheduler::to_string(record.actor), 6) +
                     padded(core ? core_name(static_cast<int>(record.actor.index), recorder.cores_per_device()) : "",
                            who_width(recorder)) +
                     record_title(recorder, record) + ": " + record_details(recorder, record);
  if (!record.line.empty()) text += "  (" + record.line + ")";
  if (record.kind == TraceEvent::Kind::wait) text += wake_sources(recorder, index);
  return text + "\n";
}

}  // namespace

std::string text_trace(const TraceRecorder& recorder, const TraceHeader& header) {
  std::string text = "weft trace\n";
  text += "scenario: " + header.scenario + "\n";
  if (!header.description.empty()) text += "about:    " + control_escaped(header.description, true) + "\n";
  text += "machine:  " + header.machine + (header.options.empty() ? "" : " (" + header.options + ")") + "\n";
  text += "run:      " + header.run + ", " + std::to_string(header.steps) + " steps\n";
  text += "verdict:  " + header.verdict + " (expected " + header.expected + ")\n";
  text += "schedule: " + header.schedule + "\n";
  text += "actors:   cN the core of global id N, rN/wN the read/write phase of DMA N\n\n";
  text += "  step  actor " + padded("who", who_width(recorder)) + "operation\n";
  for (std::size_t i = 0; i < recorder.records().size(); ++i) text += operation_line(recorder, i);
  if (header.sites.empty()) return text;
  text += header.sites_blocked ? "\nblocked at the end:\n" : "\nfailure (" + header.verdict + "):\n";
  for (const model::FailureSite& site : header.sites)
    text += "  " + site_label(site, recorder.cores_per_device()) + "\n";
  if (!header.explanation.empty()) text += "\n" + header.explanation;
  return text;
}

}  // namespace weft::sim
