#include "sim/cli/aside_name.hpp"

#include <climits>
#include <cstdint>
#include <cstdio>

namespace weft::sim {

std::string aside_name(const std::string& target, const std::string& suffix) {
  const std::size_t slash = target.rfind('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  if (target.size() - name_at + suffix.size() <= NAME_MAX) return target + suffix;
  std::uint64_t digest = 14695981039346656037ull;
  for (std::size_t i = name_at; i < target.size(); ++i) {
    digest ^= static_cast<unsigned char>(target[i]);
    digest *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(digest));
  return target.substr(0, name_at) + ".weft-" + hex + suffix;
}

}  // namespace weft::sim
