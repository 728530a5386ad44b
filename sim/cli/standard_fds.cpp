#include "sim/cli/standard_fds.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace weft::sim {

void occupy_closed_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    // open returns the lowest free descriptor: this one, as the ones below it are open.
    const int opened = ::open("/dev/null", O_RDONLY);
    if (opened >= 0 && opened != fd) ::close(opened);
  }
}

}  // namespace weft::sim
