#include "sim/cli/stack_limit.hpp"

#include <sys/resource.h>

namespace weft::sim {

std::optional<std::string> stack_limit_problem(std::optional<std::uint64_t> limit_bytes) {
  if (!limit_bytes || *limit_bytes >= needed_stack_bytes) return std::nullopt;
  const std::uint64_t needed_kib = needed_stack_bytes / 1024;
  return "the stack size limit is " + std::to_string(*limit_bytes / 1024) + " KiB (" + std::to_string(*limit_bytes) +
         " bytes; ulimit -s), but weft needs at least " + std::to_string(needed_kib) +
         " KiB for its own threads: raise it (ulimit -s " + std::to_string(needed_kib) + ", or more) and run again";
}

std::optional<std::string> stack_limit_problem() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return stack_limit_problem(static_cast<std::uint64_t>(limit.rlim_cur));
}

}  // namespace weft::sim
