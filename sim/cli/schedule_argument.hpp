#pragma once
// The schedule a reproduce line replays, as one command-line word.
//
// Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN: execve fails with
// E2BIG), and the schedule string of a large run is longer (186,879 characters for 64 devices of
// the ring all-gather), so a reproduce line that carried it could not run. A schedule string
// longer than 64 KiB is therefore written to a file, and the line reads `--schedule @FILE`
// (`weft replay` reads the schedule from FILE). The file goes beside the command's first output
// file (F.jsonl -> F.jsonl.seed-7.schedule), else into the current folder
// (weft-SCENARIO.DIGEST.seed-7.schedule, DIGEST the first 8 digits of config_digest.hpp's, so
// that runs of other configurations never share a name); if it cannot be written, the line keeps
// the string and stderr says why.
//
// A schedule file is never replaced: a reproduce line printed earlier may name it. When the name
// is taken by a file of another schedule, the next free one of NAME-2.schedule, NAME-3.schedule,
// ... is used; a file that holds the same schedule is named again.

#include <cstddef>
#include <optional>
#include <string>

#include "scheduler/schedule.hpp"
#include "sim/request/request.hpp"

namespace weft::sim {

inline constexpr std::size_t longest_schedule_argument = 64 * 1024;

struct ScheduleArgument {
  std::string schedule;             // the schedule string
  std::optional<std::string> file;  // where it was written, when it is too long for one argument
  bool left_out = false;            // too long, and not written to a file (asked so): replay by seed
  // The word after --schedule: the string, or @FILE; quoted for a POSIX shell where needed.
  std::string word() const;
};

class ScheduleFiles {
 public:
  // `output`: the command's first output file, if it has one.
  ScheduleFiles(const Request& request, const std::optional<std::string>& output);

  // `name` tells the schedule from others of the same command: "seed-7", "seed-7.shrunk".
  // Without `to_file`, a schedule too long for one argument is left out instead of written (a
  // keep-going sweep writes one file per finding's signature, not per failing seed).
  ScheduleArgument argument(const scheduler::Schedule& schedule, const std::string& name, bool to_file = true) const;

 private:
  std::string prefix_;
};

// The text of `weft replay --schedule WORD`: WORD itself, or the contents of FILE for @FILE
// (one line of at most 64 MiB, from a regular file, with a UTF-8 byte order mark, trailing
// spaces, CR and blank lines ignored; ConfigError naming the file otherwise). An empty WORD, or
// a FILE without a schedule, is a ConfigError too.
std::string read_schedule_word(const std::string& word);

}  // namespace weft::sim
