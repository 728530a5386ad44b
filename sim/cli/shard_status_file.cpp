#include "sim/cli/shard_status_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/config/config_error.hpp"

namespace weft::sim {

void touch_shard_status_file(const Environment& environment) {
  if (!environment("TEST_SHARD_INDEX")) return;
  const auto path = environment("TEST_SHARD_STATUS_FILE");
  if (!path) return;
  const int fd = ::open(path->c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0666);
  if (fd < 0 || ::futimens(fd, nullptr) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw ConfigError("TEST_SHARD_STATUS_FILE", 0, 0, "shard",
                      "cannot touch '" + *path + "' (Bazel's sign that the test honours TEST_SHARD_INDEX): " + why);
  }
  ::close(fd);
}

}  // namespace weft::sim
