#pragma once
// "seeds 1200/10000, 3100 executions/s, 1 failure, ETA 3s" on stderr, redrawn at most five
// times a second, only on a terminal (terminal_line.hpp).

#include <cstdint>

#include "sim/cli/terminal_line.hpp"

namespace weft::sim {

class ProgressLine {
 public:
  explicit ProgressLine(std::uint64_t planned) : planned_(planned) {}
  void update(std::uint64_t done, std::uint64_t failures);
  void clear() { line_.clear(); }

 private:
  TerminalLine line_;
  std::uint64_t planned_;
};

}  // namespace weft::sim
