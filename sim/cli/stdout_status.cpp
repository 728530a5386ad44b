#include "sim/cli/stdout_status.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace weft::sim {

int with_stdout_checked(int status) {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;  // before std::cout's own flush, to keep errno
  const int error = errno;
  std::cout.flush();
  if (flushed && std::ferror(stdout) == 0 && !std::cout.fail()) return status;
  std::cerr << "weft: cannot write to stdout" << (error != 0 ? std::string(": ") + std::strerror(error) : std::string())
            << "; what was printed is incomplete\n";
  return 2;
}

}  // namespace weft::sim
