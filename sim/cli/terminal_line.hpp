#pragma once
// A line of progress on stderr, redrawn in place, and only when stderr is a terminal (pipes and
// CI logs get none). The sweep's, explore's and bench's progress lines draw through it; it
// reads the wall clock for display only, never for a result.

#include <optional>
#include <string>

namespace weft::sim {

class TerminalLine {
 public:
  TerminalLine();
  bool enabled() const { return enabled_; }
  // The seconds since the line began, when it is time to redraw it (at most five times a second,
  // or at once when `last`); nothing when it is not, or stderr is not a terminal.
  std::optional<double> due(bool last = false);
  void draw(const std::string& text);
  void clear();

 private:
  bool enabled_;
  double started_;
  double last_ = 0;
};

}  // namespace weft::sim
