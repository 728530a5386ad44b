#include "bench/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace weft::bench {

BenchProgress::BenchProgress(int stages) : enabled_(isatty(fileno(stderr)) != 0), stages_(stages) {
  if (!enabled_) return;
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return done_; }))
      if (current_ > 0) draw();
  });
}

BenchProgress::~BenchProgress() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  ticker_.join();
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

void BenchProgress::stage(std::string what) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  ++current_;
  what_ = std::move(what);
  since_ = std::chrono::steady_clock::now();
  draw();
}

void BenchProgress::draw() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
  std::fprintf(stderr, "\r\033[Kbench: %d/%d %s, %.0f s", current_, stages_, what_.c_str(), seconds);
  std::fflush(stderr);
}

}  // namespace weft::bench
