#pragma once
// `weft merge F...`: the JSON lines of a sweep's shards (one file per machine) as one sweep:
// every failure line in seed order, then one summary line that adds the shards' counts.

#include <string>
#include <vector>

namespace weft::sim {

// Returns the exit status: 0 no failures, 1 some, 2 an unreadable or malformed file.
int command_merge(const std::vector<std::string>& files);

}  // namespace weft::sim
