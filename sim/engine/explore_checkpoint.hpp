#pragma once
// An exploration's checkpoint as bytes (`weft explore --checkpoint F`, docs/exploring.md): what
// it belongs to (its identity), and its whole state between two runs (ExploreSaved: the
// explorer's states, wakeup trees and sleep sets, its counters, the verdicts found so far).
//
// Layout: a magic line, a format number, the identity, the state (byte_codec.hpp), then an
// 8-byte FNV-1a hash of all that precedes it. decode_checkpoint refuses (DecodeError, its text
// starting "checkpoint") anything else: another file, a truncated or altered one, a format this
// weft does not read. The identity is read first and separately (read_identity), so that a
// checkpoint of another weft version is named as such rather than as corrupt.
//
// Contract: decode_checkpoint(encode_checkpoint(c)) == c.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/engine/byte_codec.hpp"
#include "sim/engine/explore.hpp"

namespace weft::sim {

// What a checkpoint belongs to: resuming it under any other is refused.
struct CheckpointIdentity {
  std::string weft_version;
  std::string scenario;
  std::string config_digest;  // sim/request/config_digest.hpp: the effective configuration and parameters
  std::uint64_t max_executions = 0;
  std::optional<int> preemption_bound;
  bool reduction = true;
  bool keep_going = false;
  friend bool operator==(const CheckpointIdentity&, const CheckpointIdentity&) = default;
};

struct ExploreCheckpoint {
  CheckpointIdentity identity;
  ExploreSaved saved;
  friend bool operator==(const ExploreCheckpoint&, const ExploreCheckpoint&) = default;
};

std::string encode_checkpoint(const ExploreCheckpoint& checkpoint);
ExploreCheckpoint decode_checkpoint(std::string_view bytes);
// The identity alone, when the bytes start as a checkpoint does (the hash unchecked).
CheckpointIdentity read_identity(std::string_view bytes);

// The differences between the identity of the exploration resuming (`here`) and the
// checkpoint's, in words ("the scenario: readers here, lastzero in the checkpoint"), joined by
// "; "; nothing when they are the same.
std::optional<std::string> identity_difference(const CheckpointIdentity& here, const CheckpointIdentity& saved);

}  // namespace weft::sim
