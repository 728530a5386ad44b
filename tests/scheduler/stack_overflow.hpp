#pragma once
// For the fiber tests: a recursion deep enough to run a fiber into its stack's guard page.

#include <cstdint>

namespace weft::scheduler::testing {

// Recurses `limit` levels of 512 bytes of frame each (with a huge limit, until the stack ends).
__attribute__((noinline)) inline std::int64_t descend(std::int64_t depth, std::int64_t limit) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth >= limit) return frame[0];
  return descend(depth + 1, limit) + frame[0];
}

}  // namespace weft::scheduler::testing
