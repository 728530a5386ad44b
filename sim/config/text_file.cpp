#include "sim/config/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "sim/config/config_error.hpp"
#include "sim/config/text_limits.hpp"

namespace weft::sim::detail {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& message) {
  throw ConfigError(path.string(), 0, 0, "", "cannot read the file: " + message);
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a file";
}

class OpenFile {
 public:
  explicit OpenFile(int fd) : fd_(fd) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() { ::close(fd_); }
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_text_file(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below, like any file
  // that is not regular: a device such as /dev/zero never ends).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) fail(path, errno == ENOENT ? std::string("it does not exist") : std::strerror(errno));
  const OpenFile file(fd);
  struct stat status {};
  if (::fstat(file.fd(), &status) != 0) fail(path, std::strerror(errno));
  if (!S_ISREG(status.st_mode)) fail(path, "it is not a regular file (it is " + kind_of(status.st_mode) + ")");
  // The size is checked as the bytes come, not from stat: a file can grow, and files of /proc
  // report 0 bytes whatever they hold.
  std::string text;
  char chunk[64 * 1024];
  while (true) {
    const ssize_t got = ::read(file.fd(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(path, std::string("reading failed: ") + std::strerror(errno));
    if (got == 0) return text;
    if (text.size() + static_cast<std::size_t>(got) > max_text_bytes)
      fail(path, "it is too large (more than " + std::to_string(max_text_bytes) +
                     " bytes; a config or scenario file holds at most that)");
    text.append(chunk, static_cast<std::size_t>(got));
  }
}

}  // namespace weft::sim::detail
