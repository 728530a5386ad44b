#pragma once
// A finding about the simulated kernel: a verdict other than ok, with the message a kernel
// author reads. Findings are values, never exceptions: a kernel's mistake ends its execution
// with a verdict and never unwinds through the engine (docs/semantics.md §9).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/rect.hpp"
#include "model/verdict.hpp"

namespace weft::model {

// Where in the kernel's source a visible operation was issued.
struct SourceLine {
  const char* file = "";
  int line = 0;
};

// Who did something: a core (by global id) or a DMA (by id).
struct Accessor {
  enum class Kind { core, dma } kind = Kind::core;
  int index = 0;
  bool is_write = false;  // for a DMA: its write phase (else its read phase)
  friend bool operator==(const Accessor&, const Accessor&) = default;
};

// What a core blocked at a wait waits for: its own cell of a semaphore to hold `needs`.
struct BlockedWait {
  int semaphore_id = -1;
  std::int64_t needs = 0;
  std::int64_t holds = 0;
};

// One place a failure points at, for timelines and explanations: a racing access, a blocked wait.
struct FailureSite {
  Accessor who{};
  std::uint64_t step = 0;
  SourceLine line{};
  std::string what{};
  std::vector<BlockedWait> waits{};  // a blocked core's wait: any one of these cells (none: not at a wait)
  Rect rect{};                       // a racing access: the rectangle it touched (a DMA write: its chunk's)
};

struct Failure {
  Failure() = default;
  Failure(Verdict verdict_, std::string message_, std::vector<FailureSite> sites_ = {})
      : verdict(verdict_), message(std::move(message_)), sites(std::move(sites_)) {}

  Verdict verdict = Verdict::kernel_error;
  std::string message;
  std::vector<FailureSite> sites;
};

std::string to_string(SourceLine where);       // "ring_all_gather.cpp:42" (file name without folders)
std::string_view file_name(SourceLine where);  // "ring_all_gather.cpp" (without folders)

// `failure` with where the kernel made the call that found it: its message ends "(at FILE:LINE)".
inline Failure located(Failure failure, SourceLine line) {
  failure.message += " (at " + to_string(line) + ")";
  return failure;
}

}  // namespace weft::model
