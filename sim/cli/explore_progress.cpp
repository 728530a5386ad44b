#include "sim/cli/explore_progress.hpp"

#include <algorithm>
#include <cstdio>

namespace weft::sim {

void ExploreProgressLine::update(const ExploreProgress& progress) {
  const auto elapsed = line_.due();
  if (!elapsed) return;
  char text[200];
  std::snprintf(text, sizeof text, "explore: %llu runs, %.0f runs/s, run of %zu steps, %zu branches waiting, %.1f MB kept",
                static_cast<unsigned long long>(progress.runs), progress.runs / std::max(*elapsed, 1e-9), progress.depth,
                progress.frontier, progress.memory_bytes / 1e6);
  line_.draw(text);
}

}  // namespace weft::sim
