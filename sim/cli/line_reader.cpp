#include "sim/cli/line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

constexpr std::size_t chunk = 1 << 16;

}  // namespace

LineReader::LineReader(std::string path, std::size_t max_line) : path_(std::move(path)), max_line_(max_line) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block the open
  if (fd_ < 0) throw ConfigError(path_, 0, 0, "", std::string("cannot read the file: ") + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw ConfigError(path_, 0, 0, "", S_ISDIR(info.st_mode) ? "is a folder, not a file"
                                                               : "is not a regular file (a device, a FIFO or a socket)");
  }
}

LineReader::LineReader(LineReader&& other) noexcept
    : path_(std::move(other.path_)),
      max_line_(other.max_line_),
      fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)),
      start_(other.start_),
      scanned_(other.scanned_),
      at_end_(other.at_end_),
      cut_short_(other.cut_short_),
      line_(other.line_) {}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

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
    ssize_t got = 0;
    do got = ::read(fd_, buffer_.data() + had, chunk);
    while (got < 0 && errno == EINTR);
    if (got < 0)
      throw ConfigError(path_, line_ + 1, 0, "", std::string("cannot read the file: ") + std::strerror(errno));
    buffer_.resize(had + static_cast<std::size_t>(got));
    at_end_ = got == 0;
  }
  throw ConfigError(path_, line_ + 1, 0, "",
                    "a line longer than " + std::to_string(max_line_) + " bytes: not a sweep's JSON lines");
}

}  // namespace weft::sim
