#pragma once
// The one seeded generator (Rng) behind every random choice: xoshiro256** seeded through splitmix64,
// with its own range reduction (Lemire's multiply-shift with rejection), so a seed gives the
// same choices with every compiler and standard library.

#include <cstdint>

namespace weft::scheduler {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next();
  // Uniform in [0, bound); bound > 0.
  std::uint64_t below(std::uint64_t bound);

 private:
  std::uint64_t state_[4];
};

}  // namespace weft::scheduler
