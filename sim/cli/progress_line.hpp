#pragma once
// "seeds 1200/10000, 3100 executions/s, 1 failure, ETA 3s" on stderr, redrawn at most five
// times a second, only on a terminal. It reads the wall clock for display only.

#include <cstdint>

namespace weft::sim {

class ProgressLine {
 public:
  explicit ProgressLine(std::uint64_t planned);
  void update(std::uint64_t done, std::uint64_t failures);
  void clear();

 private:
  bool enabled_;
  std::uint64_t planned_;
  double started_;
  double last_;
};

}  // namespace weft::sim
