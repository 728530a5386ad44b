#pragma once
// The stack weft's own threads need, checked when a command starts. The main thread, and every
// thread weft starts (sweep and explore workers take their stack size from the same limit), run
// the TOML parser (under 100 KiB with the limits of sim/config/text_limits.hpp), the scheduler's
// loop and the explorer (a small exploration died of SIGSEGV at `ulimit -s 64` and ran at 96);
// kernels run on fiber stacks of their own (scheduler.stack_bytes), which the limit does not
// touch. Below `needed_stack_bytes` (a margin of some ten times over what was measured) weft
// refuses to start, naming the limit and what it needs, rather than die of SIGSEGV on the way.

#include <cstdint>
#include <optional>
#include <string>

namespace weft::sim {

inline constexpr std::uint64_t needed_stack_bytes = std::uint64_t{1} << 20;

// Why a soft stack limit of `limit_bytes` (RLIMIT_STACK; nothing: unlimited) is too small, or
// nothing when it is enough.
std::optional<std::string> stack_limit_problem(std::optional<std::uint64_t> limit_bytes);

// The same for this process's limit.
std::optional<std::string> stack_limit_problem();

}  // namespace weft::sim
