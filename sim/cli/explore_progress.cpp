#include "sim/cli/explore_progress.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/cli/estimate_text.hpp"

namespace weft::sim {

void ExploreProgressLine::update(const ExploreProgress& progress) {
  const auto elapsed = line_.due();
  if (!elapsed) return;
  const double rate = static_cast<double>(progress.runs) / std::max(*elapsed, 1e-9);
  char text[240];
  std::snprintf(text, sizeof text,
                "explore: %llu runs, %.0f runs/s, run of %zu steps, %zu branches waiting, %.1f MB kept",
                static_cast<unsigned long long>(progress.runs), rate, progress.depth, progress.frontier,
                progress.memory_bytes / 1e6);
  std::string line = text;
  if (progress.estimated_classes > 0)
    line += ", of ~" + approximate(progress.estimated_classes) + " classes, ~" +
            duration_text(seconds_left(progress.complete, progress.estimated_classes, rate)) + " left";
  line_.draw(line);
}

}  // namespace weft::sim
