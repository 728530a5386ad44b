#pragma once
// `weft explore --checkpoint F` and `--resume F` (docs/exploring.md): the checkpoint's identity
// for a request, its file written whole (a temporary file renamed over it: a process killed
// while saving leaves the last checkpoint), and read back, refused unless it is whole and of
// this exploration.

#include <stdexcept>
#include <string>

#include "scheduler/strategies/explorer.hpp"
#include "sim/engine/explore_checkpoint.hpp"
#include "sim/request/request.hpp"

namespace weft::sim {

// Why a checkpoint cannot be resumed (a usage error: exit 2); its text names the file.
struct CheckpointRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

CheckpointIdentity checkpoint_identity(const Request& request, const scheduler::ExploreOptions& options,
                                       bool keep_going);

// Throws ConfigError naming the path when it cannot be written.
void write_checkpoint(const std::string& path, const ExploreCheckpoint& checkpoint);

// The state saved in `path`; throws CheckpointRefused when it cannot be read, is not a whole
// checkpoint, or belongs to another exploration than `here` (saying what differs).
ExploreSaved read_checkpoint(const std::string& path, const CheckpointIdentity& here);

}  // namespace weft::sim
