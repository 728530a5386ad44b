#include "sim/cli/terminal_line.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace weft::sim {
namespace {

double now_seconds() {  // display only
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

TerminalLine::TerminalLine() : enabled_(isatty(fileno(stderr)) != 0), started_(now_seconds()) {}

std::optional<double> TerminalLine::due(bool last) {
  if (!enabled_) return std::nullopt;
  const double now = now_seconds();
  if (now - last_ < 0.2 && !last) return std::nullopt;
  last_ = now;
  return now - started_;
}

void TerminalLine::draw(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
}

void TerminalLine::clear() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace weft::sim
