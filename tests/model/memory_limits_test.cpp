// The limits the default host memory budget respects (model/memory_limits.hpp): a cgroup v2
// memory.max of the process's cgroup or of one above it, and the address-space limit.

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model/memory_limits.hpp"

namespace fs = std::filesystem;
using weft::model::cgroup_memory_max;

namespace {

struct CgroupTree {
  fs::path root = fs::temp_directory_path() / ("weft_cgroup_test_" + std::to_string(getpid()));
  CgroupTree() { fs::create_directories(root / "system.slice" / "job.scope"); }
  ~CgroupTree() { fs::remove_all(root); }
  void limit(const std::string& cgroup, const std::string& text) const {
    std::ofstream(root / cgroup / "memory.max") << text;
  }
};

}  // namespace

TEST_CASE("A cgroup's memory.max, or an ancestor's, limits the memory", "[model][hardening]") {
  const CgroupTree tree;
  const std::string self = "0::/system.slice/job.scope\n";
  CHECK_FALSE(cgroup_memory_max(tree.root, self));  // no memory.max anywhere
  tree.limit("system.slice/job.scope", "max\n");
  CHECK_FALSE(cgroup_memory_max(tree.root, self));  // "max" is no limit
  tree.limit("system.slice", "1073741824\n");
  CHECK(cgroup_memory_max(tree.root, self) == 1073741824);  // the parent's
  tree.limit("system.slice/job.scope", "536870912\n");
  CHECK(cgroup_memory_max(tree.root, self) == 536870912);  // the lower, the process's own
  tree.limit("", "268435456\n");
  CHECK(cgroup_memory_max(tree.root, self) == 268435456);  // the mount's root (a container's own cgroup)
  CHECK_FALSE(cgroup_memory_max(tree.root, "12:memory:/system.slice\n"));  // cgroup v1 only
  CHECK(cgroup_memory_max(tree.root, "1:name=systemd:/x\n0::/\n") == 268435456);
}

TEST_CASE("The address-space limit lowers the default host memory budget", "[model][hardening]") {
#if defined(WEFT_SANITIZE_ADDRESS)
  WARN("not run under AddressSanitizer: it cannot run under an address-space limit");
  return;
#endif
  // In a child, so the limit stays there: under 3 GiB of address space the memory the process
  // may use (half of which is the default budget, host_budget_test.cpp) is at most 3 GiB.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit limit{3L << 30, 3L << 30};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(10);
    if (weft::model::address_space_limit() != (3L << 30)) _exit(11);
    const std::int64_t bytes = weft::model::memory_limit_bytes();
    _exit(bytes > 0 && bytes <= (3L << 30) ? 0 : 12);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
