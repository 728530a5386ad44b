#include "sim/cli/checkpoint_file.hpp"

#include <fstream>
#include <iterator>

#include "sim/api/version.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/request/config_digest.hpp"

namespace weft::sim {

CheckpointIdentity checkpoint_identity(const Request& request, const scheduler::ExploreOptions& options,
                                       bool keep_going) {
  return {WEFT_VERSION,
          request.scenario->name,
          config_digest(request),
          options.max_executions,
          options.preemption_bound,
          options.reduction,
          keep_going};
}

void write_checkpoint(const std::string& path, const ExploreCheckpoint& checkpoint) {
  write_file_whole(path, encode_checkpoint(checkpoint));
}

ExploreSaved read_checkpoint(const std::string& path, const CheckpointIdentity& here) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw CheckpointRefused("cannot resume " + path + ": it cannot be read");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw CheckpointRefused("cannot resume " + path + ": it cannot be read");
  try {
    // The identity first: a checkpoint of another exploration (or weft) is named as such, even
    // when the rest is in a form this weft does not read.
    if (const auto difference = identity_difference(here, read_identity(bytes)))
      throw CheckpointRefused("cannot resume " + path + ": it is the checkpoint of another exploration (" +
                              *difference + ")");
    return decode_checkpoint(bytes).saved;
  } catch (const byte_codec::DecodeError& error) {
    throw CheckpointRefused("cannot resume " + path + ": " + error.what());
  }
}

}  // namespace weft::sim
