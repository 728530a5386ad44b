#pragma once
// A pseudo-terminal, for what weft prints only on a terminal (progress lines): give path() as
// a process's stderr (weft_process.hpp's Streams), then read what it printed.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace weft::testing {

class Terminal {
 public:
  Terminal() : master_(::posix_openpt(O_RDWR | O_NOCTTY)) {
    REQUIRE(master_ >= 0);
    REQUIRE(::grantpt(master_) == 0);
    REQUIRE(::unlockpt(master_) == 0);
    path_ = ::ptsname(master_);
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;
  ~Terminal() { ::close(master_); }
  const std::string& path() const { return path_; }

  // What was printed on it during the next `milliseconds`.
  std::string read_for(int milliseconds) const {
    std::string text;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
    while (std::chrono::steady_clock::now() < until) {
      pollfd ready{master_, POLLIN, 0};
      if (::poll(&ready, 1, 50) <= 0) continue;
      char chunk[4096];
      const ssize_t got = ::read(master_, chunk, sizeof chunk);
      if (got <= 0) break;
      text.append(chunk, static_cast<std::size_t>(got));
    }
    return text;
  }

 private:
  int master_;
  std::string path_;
};

}  // namespace weft::testing
