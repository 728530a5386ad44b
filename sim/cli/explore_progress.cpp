#include "sim/cli/explore_progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace weft::sim {
namespace {

double now_seconds() {  // the display's own clock
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ExploreProgressLine::ExploreProgressLine() : enabled_(isatty(fileno(stderr)) != 0), started_(now_seconds()) {}

void ExploreProgressLine::update(const ExploreProgress& progress) {
  if (!enabled_) return;
  const double now = now_seconds();
  if (now - last_ < 0.2) return;
  last_ = now;
  std::fprintf(stderr, "\r\033[Kexplore: %llu runs, %.0f runs/s, run of %zu steps, %zu branches waiting, %.1f MB kept",
               static_cast<unsigned long long>(progress.runs), progress.runs / std::max(now - started_, 1e-9),
               progress.depth, progress.frontier, progress.memory_bytes / 1e6);
  std::fflush(stderr);
}

void ExploreProgressLine::clear() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace weft::sim
