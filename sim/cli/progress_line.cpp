#include "sim/cli/progress_line.hpp"

#include <algorithm>
#include <cstdio>

namespace weft::sim {

void ProgressLine::update(std::uint64_t done, std::uint64_t failures) {
  const auto elapsed = line_.due(done == planned_);
  if (!elapsed) return;
  const double rate = done / std::max(*elapsed, 1e-9);
  const double eta = rate > 0 ? (planned_ - done) / rate : 0;
  char text[160];
  std::snprintf(text, sizeof text, "seeds %llu/%llu, %.0f executions/s, %llu failure%s, ETA %.0fs",
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(planned_), rate,
                static_cast<unsigned long long>(failures), failures == 1 ? "" : "s", eta);
  line_.draw(text);
}

}  // namespace weft::sim
