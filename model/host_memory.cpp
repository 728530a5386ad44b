#include "model/host_memory.hpp"

#include <unistd.h>

#include "model/memory_limits.hpp"

namespace weft::model {

std::int64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
}

std::int64_t host_budget_bytes(const MachineSpec& spec) {
  if (spec.host_bytes > 0) return spec.host_bytes;
  static const std::int64_t half_of_limit = memory_limit_bytes() / 2;  // asked once: the limits stay
  return half_of_limit > 0 ? half_of_limit : INT64_MAX;
}

}  // namespace weft::model
