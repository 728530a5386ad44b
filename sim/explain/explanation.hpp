#pragma once
// What an explanation of a failure holds: the sentences a kernel author reads (why two accesses
// are unordered, the wait-for graph of a deadlock, where a leaked signal or an unwaited DMA
// started), the candidate fixes each naming the source line to change, and, for timelines and
// JSON, the broken chain as events and the records of the causal view.
//
// Explanations are made only when a failure is reported (sim/explain/explain.hpp), from a
// recording of the failing execution; nothing of this exists while executions run.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/recorder.hpp"

namespace weft::sim {

// One event of a causal chain, in causal order.
struct ChainLink {
  std::size_t record = no_record;  // the recorded event; no_record for the access that failed
  std::string who;                 // "device 5 core 0", "DMA 17"
  std::string what;                // "signal semaphore 2003", "wait semaphore 2003", "DMA 25 write"
  std::string line;                // "file.cpp:42"
  std::uint64_t step = 0;
};

struct FixCandidate {
  std::string line;  // the source line to change ("file.cpp:42")
  std::string text;  // what to change there, in words
};

struct Explanation {
  std::string title;             // "why they are unordered", "wait-for graph", ...
  std::vector<std::string> why;  // its sentences, one a line (continuations indented)
  std::vector<FixCandidate> fixes;
  std::vector<ChainLink> chain;    // a race: from the other side's last event to the later access
  std::vector<std::size_t> focus;  // the records of the causal view, ascending

  bool empty() const { return why.empty(); }
  // Appends another explanation (keep_going: one per race).
  void append(Explanation other);
};

// The explanation as a report section: "TITLE:\n  sentence\n...to fix it, one of:\n  ...".
std::string format_explanation(const Explanation& explanation);

}  // namespace weft::sim
