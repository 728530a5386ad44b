#pragma once
// How much memory this process may use, as far as the system says: the machine's physical
// memory, the address-space limit (RLIMIT_AS, `ulimit -v`) and the cgroup v2 `memory.max` of the
// process's cgroup and of each cgroup above it (a container's, a systemd unit's, a Slurm job's).
// Each is read, never changed. The host memory budget (host_memory.hpp) is half the lowest.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace weft::model {

// The lowest `memory.max` of the cgroup v2 that `proc_self_cgroup` (the text of
// /proc/self/cgroup) names, and of the cgroups above it, under `root` (where cgroup2 is
// mounted); a cgroup whose memory.max is "max", missing or unreadable sets no limit. Nothing when
// no cgroup sets one, or the text names no cgroup v2 (a line "0::PATH").
std::optional<std::int64_t> cgroup_memory_max(const std::filesystem::path& root, std::string_view proc_self_cgroup);

// The soft RLIMIT_AS in bytes, unless unlimited.
std::optional<std::int64_t> address_space_limit();

// The lowest of the physical memory (when the system says it), the address-space limit and the
// cgroup limit of this process (/proc/self/cgroup under /sys/fs/cgroup); 0 when none is known.
std::int64_t memory_limit_bytes();

}  // namespace weft::model
