#pragma once
// Which part of a sweep this process runs: seed s belongs to shard I of N when s % N == I.
// From `--shard I/N`, or else from the variables CI systems and job arrays already set:
//   GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS          (CI matrices, ctest-style runners)
//   TEST_SHARD_INDEX / TEST_TOTAL_SHARDS            (Bazel)
//   SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_MIN/_MAX/_STEP (task ID is shard (ID - MIN) / STEP
//     of (MAX - MIN) / STEP + 1; _COUNT, when set, must agree), or with _COUNT alone (shard ID of COUNT)
//   JOB_COMPLETION_INDEX (a Kubernetes indexed Job) with --shard-count N
// The flag wins over the environment. Two sources in the environment that name different shards
// are an error naming both (a Bazel test run inside a CI matrix, say), never a silent pick.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace weft::sim {

struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
  std::string source = "none";  // where it came from, for the summary
};

// Reads an environment variable; nullopt when unset.
using Environment = std::function<std::optional<std::string>(const std::string&)>;
Environment process_environment();

// `flag` is the --shard value if given, `shard_count` the --shard-count value. Throws
// ConfigError naming the flag or variable when a value is malformed or out of range.
Shard resolve_shard(const std::optional<std::string>& flag, const std::optional<std::uint64_t>& shard_count,
                    const Environment& environment);

}  // namespace weft::sim
