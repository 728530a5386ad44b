#pragma once
// Reads a regular file a line at a time, holding at most one line (of at most `max_line` bytes)
// and one read's worth of bytes in memory, whatever the file is: a line longer than the bound
// (/dev/zero's endless one, a binary file) is an error, not a growing buffer.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "sim/config/regular_file.hpp"

namespace weft::sim {

class LineReader {
 public:
  // Throws ConfigError naming `path` when it cannot be opened or is not a regular file (a folder,
  // a device, a FIFO: sim/config/regular_file.hpp).
  LineReader(std::string path, std::size_t max_line) : file_(std::move(path)), max_line_(max_line) {}

  // The next line, without its newline, valid until the next call; nullopt at the end. Throws
  // ConfigError naming the file and line when a line is longer than the bound or cannot be read.
  std::optional<std::string_view> next();
  // The number of the line next() returned last (1 for the first).
  std::uint64_t line_number() const { return line_; }
  // True when the line next() returned last ended the file without a newline.
  bool cut_short() const { return cut_short_; }
  const std::string& path() const { return file_.path(); }

 private:
  RegularFile file_;
  std::size_t max_line_;
  std::string buffer_;
  std::size_t start_ = 0;    // where the next line starts in buffer_
  std::size_t scanned_ = 0;  // bytes from start_ known to hold no newline
  bool at_end_ = false;
  bool cut_short_ = false;
  std::uint64_t line_ = 0;
};

}  // namespace weft::sim
