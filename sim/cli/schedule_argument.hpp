#pragma once
// The schedule a reproduce line replays, as one command-line word.
//
// Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN: execve fails with
// E2BIG), and the schedule string of a large run is longer (186,879 characters for 64 devices of
// the ring all-gather), so a reproduce line that carried it could not run. A schedule string
// longer than 64 KiB is therefore written to a file, and the line reads `--schedule @FILE`
// (`weft replay` reads the schedule from FILE). The file goes beside the command's first output
// file (F.jsonl -> F.jsonl.seed-7.schedule), else into the current folder
// (weft-SCENARIO.seed-7.schedule); if it cannot be written, the line keeps the string and stderr
// says why.

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
  // The word after --schedule: the string, or @FILE; quoted for a POSIX shell where needed.
  std::string word() const;
};

class ScheduleFiles {
 public:
  // `output`: the command's first output file, if it has one.
  ScheduleFiles(const Request& request, const std::optional<std::string>& output);

  // `name` tells the schedule from others of the same command: "seed-7", "seed-7.shrunk".
  ScheduleArgument argument(const scheduler::Schedule& schedule, const std::string& name) const;

 private:
  std::string prefix_;
};

// The text of `weft replay --schedule WORD`: WORD itself, or the contents of FILE for @FILE
// (one line of at most 64 MiB, from a regular file; ConfigError naming the file otherwise).
std::string read_schedule_word(const std::string& word);

}  // namespace weft::sim
