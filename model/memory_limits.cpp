#include "model/memory_limits.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

#include "model/host_memory.hpp"

namespace weft::model {
namespace {

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A memory.max's bytes; nothing for "max" or anything that is not a number.
std::optional<std::int64_t> limit_in(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  std::int64_t bytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || bytes < 0) return std::nullopt;
  return bytes;
}

std::optional<std::int64_t> lower(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

}  // namespace

std::optional<std::int64_t> cgroup_memory_max(const std::filesystem::path& root, std::string_view proc_self_cgroup) {
  std::optional<std::string_view> path;
  for (std::size_t start = 0; start < proc_self_cgroup.size();) {
    const std::size_t end = std::min(proc_self_cgroup.find('\n', start), proc_self_cgroup.size());
    const std::string_view line = proc_self_cgroup.substr(start, end - start);
    if (line.substr(0, 3) == "0::") path = line.substr(3);
    start = end + 1;
  }
  if (!path) return std::nullopt;
  std::optional<std::int64_t> lowest;
  // From the process's cgroup up to the root of the mount (a container sees its own cgroup there).
  std::filesystem::path relative = std::filesystem::path(std::string(*path)).relative_path();
  for (;;) {
    if (const auto text = read_text(root / relative / "memory.max")) lowest = lower(lowest, limit_in(*text));
    if (relative.empty()) break;
    relative = relative.parent_path();
  }
  return lowest;
}

std::optional<std::int64_t> address_space_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<std::int64_t>(std::min<rlim_t>(limit.rlim_cur, INT64_MAX));
}

std::int64_t memory_limit_bytes() {
  const std::int64_t physical = physical_memory_bytes();
  std::optional<std::int64_t> lowest = physical > 0 ? std::optional(physical) : std::nullopt;
  lowest = lower(lowest, address_space_limit());
  if (const auto cgroups = read_text("/proc/self/cgroup"))
    lowest = lower(lowest, cgroup_memory_max("/sys/fs/cgroup", *cgroups));
  return lowest.value_or(0);
}

}  // namespace weft::model
