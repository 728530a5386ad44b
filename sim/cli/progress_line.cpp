#include "sim/cli/progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace weft::sim {
namespace {

double now_seconds() {  // progress display only
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ProgressLine::ProgressLine(std::uint64_t planned)
    : enabled_(isatty(fileno(stderr)) != 0), planned_(planned), started_(now_seconds()), last_(0) {}

void ProgressLine::update(std::uint64_t done, std::uint64_t failures) {
  if (!enabled_) return;
  const double now = now_seconds();
  if (now - last_ < 0.2 && done != planned_) return;
  last_ = now;
  const double rate = done / std::max(now - started_, 1e-9);
  const double eta = rate > 0 ? (planned_ - done) / rate : 0;
  std::fprintf(stderr, "\r\033[Kseeds %llu/%llu, %.0f executions/s, %llu failure%s, ETA %.0fs",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(planned_), rate,
               static_cast<unsigned long long>(failures), failures == 1 ? "" : "s", eta);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace weft::sim
