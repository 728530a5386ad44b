#pragma once
// Bazel's test sharding protocol: a sharded test runs with TEST_SHARD_INDEX, TEST_TOTAL_SHARDS and
// TEST_SHARD_STATUS_FILE set, and a test that honours the first two touches the file named by the
// third; Bazel (7 and later) fails a sharded test that did not, since it would have run every
// case in every shard.

#include "sim/sweep/shard.hpp"

namespace weft::sim {

// When `environment` has TEST_SHARD_INDEX and TEST_SHARD_STATUS_FILE (call it once the sweep's
// shard was taken from the environment, not from --shard), creates the status file, or updates
// its time. Throws ConfigError naming the variable and the path when it cannot.
void touch_shard_status_file(const Environment& environment);

}  // namespace weft::sim
