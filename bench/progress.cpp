#include "bench/progress.hpp"

#include <cmath>

namespace weft::bench {

BenchProgress::BenchProgress(int stages) : stages_(stages) {
  if (!line_.enabled()) return;
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return done_; }))
      if (current_ > 0) draw();
  });
}

BenchProgress::~BenchProgress() {
  if (!line_.enabled()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  ticker_.join();
  line_.clear();
}

void BenchProgress::stage(std::string what) {
  if (!line_.enabled()) return;
  std::lock_guard lock(mutex_);
  ++current_;
  what_ = std::move(what);
  since_ = std::chrono::steady_clock::now();
  draw();
}

void BenchProgress::draw() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
  line_.draw("bench: " + std::to_string(current_) + "/" + std::to_string(stages_) + " " + what_ + ", " +
             std::to_string(std::lround(seconds)) + " s");
}

}  // namespace weft::bench
