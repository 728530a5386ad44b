#pragma once
// Which part of a sweep this process runs: seed s belongs to shard I of N when s % N == I.
// From `--shard I/N`, or else from the variables CI systems and job arrays already set:
//   GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS          (CI matrices, ctest-style runners)
//   TEST_SHARD_INDEX / TEST_TOTAL_SHARDS            (Bazel)
//   SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or with SLURM_ARRAY_TASK_MIN/_MAX
//   JOB_COMPLETION_INDEX (a Kubernetes indexed Job) with --shard-count N

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
