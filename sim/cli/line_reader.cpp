#include "sim/cli/line_reader.hpp"

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

constexpr std::size_t chunk = 1 << 16;

}  // namespace

std::optional<std::string_view> LineReader::next() {
  for (;;) {
    const std::size_t newline = buffer_.find('\n', start_ + scanned_);
    if (newline != std::string::npos) {
      if (newline - start_ > max_line_) break;
      const std::string_view line(buffer_.data() + start_, newline - start_);
      start_ = newline + 1;
      scanned_ = 0;
      ++line_;
      return line;
    }
    scanned_ = buffer_.size() - start_;
    if (scanned_ > max_line_) break;
    if (at_end_) {
      if (scanned_ == 0) return std::nullopt;
      const std::string_view line(buffer_.data() + start_, scanned_);
      start_ = buffer_.size();
      scanned_ = 0;
      ++line_;
      cut_short_ = true;
      return line;
    }
    buffer_.erase(0, start_);
    start_ = 0;
    const std::size_t had = buffer_.size();
    buffer_.resize(had + chunk);
    const std::size_t got = file_.read(buffer_.data() + had, chunk, static_cast<int>(line_ + 1));
    buffer_.resize(had + got);
    at_end_ = got == 0;
  }
  throw ConfigError(path(), line_ + 1, 0, "",
                    "a line longer than " + std::to_string(max_line_) + " bytes: not a sweep's JSON lines");
}

}  // namespace weft::sim
