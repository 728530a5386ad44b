#include "sim/config/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& message) {
  throw ConfigError(path, line, 0, "", "cannot read the file: " + message);
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a file";
}

}  // namespace

RegularFile::RegularFile(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd_ < 0) fail(path_, 0, errno == ENOENT ? std::string("it does not exist") : std::strerror(errno));
  struct stat status {};
  const bool known = ::fstat(fd_, &status) == 0;
  const int error = errno;
  if (known && S_ISREG(status.st_mode)) return;
  ::close(fd_);
  fd_ = -1;
  fail(path_, 0, known ? "it is not a regular file (it is " + kind_of(status.st_mode) + ")" : std::strerror(error));
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t RegularFile::read(char* into, std::size_t size, int line) const {
  while (true) {
    const ssize_t got = ::read(fd_, into, size);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) fail(path_, line, std::string("reading failed: ") + std::strerror(errno));
  }
}

}  // namespace weft::sim
