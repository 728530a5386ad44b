#pragma once
// A file weft reads: a config or scenario file, a sweep's JSON lines, a schedule file. It is
// opened without blocking (opening a FIFO must not wait for a writer) and refused unless it is
// a regular file: a folder, a FIFO, a socket or a device (/dev/zero never ends) is named in a
// ConfigError, "PATH: cannot read the file: it is not a regular file (it is a FIFO)". Readers on
// top of it bound what they hold (text_file.hpp, sim/cli/line_reader.hpp).

#include <cstddef>
#include <string>

namespace weft::sim {

class RegularFile {
 public:
  explicit RegularFile(std::string path);
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&&) = delete;
  ~RegularFile();

  // Reads up to `size` bytes into `into`: how many, 0 at the end. A read error throws
  // ConfigError naming the file (and `line`, the line being read, when not 0).
  std::size_t read(char* into, std::size_t size, int line = 0) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace weft::sim
