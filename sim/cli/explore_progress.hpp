#pragma once
// `weft explore`'s progress line on a terminal (terminal_line.hpp): runs so far and per second,
// the steps of the latest run, the wakeup-tree branches waiting (the frontier), the bytes the
// explorer keeps, and (one job) the estimated classes of the whole space and the time left at
// this rate (estimate_text.hpp).

#include "sim/cli/terminal_line.hpp"
#include "sim/engine/explore.hpp"

namespace weft::sim {

class ExploreProgressLine {
 public:
  void update(const ExploreProgress& progress);
  void clear() { line_.clear(); }

 private:
  TerminalLine line_;
};

}  // namespace weft::sim
