#include "sim/cli/stdout_watch.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

namespace weft::sim {

void watch_stdout_reader(void (*on_gone)()) {
  struct stat status {};
  if (::fstat(STDOUT_FILENO, &status) != 0 || !S_ISFIFO(status.st_mode)) return;
  std::thread([on_gone] {
    // No events asked for: the write end of a pipe reports POLLERR once it has no reader.
    pollfd out{STDOUT_FILENO, 0, 0};
    while (::poll(&out, 1, -1) < 0 && errno == EINTR) {
    }
    if ((out.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) on_gone();
  }).detach();
}

}  // namespace weft::sim
