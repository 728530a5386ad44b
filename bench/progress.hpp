#pragma once
// `weft bench`'s progress on a terminal (sim/cli/terminal_line.hpp): which measurement
// runs, of how many, how large it is and for how long it has run. One measurement, the large
// scale run, is a single execution of minutes at a thousand devices, so the line is redrawn
// twice a second by a thread of its own (it only draws: no figure depends on it).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "sim/cli/terminal_line.hpp"

namespace weft::bench {

class BenchProgress {
 public:
  explicit BenchProgress(int stages);
  BenchProgress(const BenchProgress&) = delete;
  BenchProgress& operator=(const BenchProgress&) = delete;
  ~BenchProgress();  // stops the thread and clears the line

  // The next measurement begins: "large scale run: 256 devices x 4 cores, 1572864 steps".
  void stage(std::string what);

 private:
  void draw();  // under mutex_

  sim::TerminalLine line_;
  const int stages_;
  int current_ = 0;
  std::string what_;
  std::chrono::steady_clock::time_point since_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread ticker_;
};

}  // namespace weft::bench
