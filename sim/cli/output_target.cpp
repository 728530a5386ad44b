#include "sim/cli/output_target.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace weft::sim {
namespace {

constexpr int max_links = 40;  // as the kernel's own limit on links followed in one lookup

OutputTarget refused(const std::string& path, const std::string& why) { return {path, false, why}; }

}  // namespace

OutputTarget output_target(const std::string& path) {
  struct stat named {};
  if (::stat(path.c_str(), &named) == 0 &&
      (S_ISCHR(named.st_mode) || S_ISBLK(named.st_mode) || S_ISFIFO(named.st_mode)))
    return {path, true, {}};  // in place, through whatever links lead there
  std::string current = path;
  for (int links = 0; links <= max_links; ++links) {
    struct stat status {};
    if (::lstat(current.c_str(), &status) != 0) {
      if (errno == ENOENT) return {current, false, {}};  // a new file (its folder is checked on writing)
      return refused(path, std::strerror(errno));
    }
    if (S_ISLNK(status.st_mode)) {  // on to what it names, relative to the link's folder
      std::error_code error;
      const std::filesystem::path target = std::filesystem::read_symlink(current, error);
      if (error) return refused(path, error.message());
      current =
          target.is_absolute() ? target.string() : (std::filesystem::path(current).parent_path() / target).string();
      continue;
    }
    if (S_ISDIR(status.st_mode)) return refused(path, "it is a folder");
    if (S_ISSOCK(status.st_mode)) return refused(path, "it is a socket");
    return {current, !S_ISREG(status.st_mode), {}};
  }
  return refused(path, "too many levels of symbolic links");
}

bool same_file_as(const std::string& path, int fd) {
  struct stat named {
  }, opened{};
  return ::stat(path.c_str(), &named) == 0 && ::fstat(fd, &opened) == 0 && named.st_dev == opened.st_dev &&
         named.st_ino == opened.st_ino;
}

}  // namespace weft::sim
