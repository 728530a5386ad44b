#pragma once
// `weft explore`'s progress line on a terminal (stderr, and only when it is a terminal, so
// pipes and CI logs get none): runs so far and per second, the steps of the latest run, the
// wakeup-tree branches waiting (the frontier) and the bytes the explorer keeps. Redrawn at most
// five times a second; its clock decides only when to draw.

#include <cstdint>

#include "sim/engine/explore.hpp"

namespace weft::sim {

class ExploreProgressLine {
 public:
  ExploreProgressLine();
  void update(const ExploreProgress& progress);
  void clear();

 private:
  bool enabled_;
  double started_;
  double last_ = 0;
};

}  // namespace weft::sim
