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
      current = target.is_absolute() ? target.string() : (std::filesystem::path(current).parent_path() / target).string();
      continue;
    }
    if (S_ISDIR(status.st_mode)) return refused(path, "it is a folder");
    if (S_ISSOCK(status.st_mode)) return refused(path, "it is a socket");
    return {current, !S_ISREG(status.st_mode), {}};
  }
  return refused(path, "too many levels of symbolic links");
}

}  // namespace weft::sim
