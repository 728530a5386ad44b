#pragma once
// Every file a command will write, checked before its first execution, so that a long sweep
// never ends in "cannot write" (hiding what it found, after all that time), and never writes
// over its own input:
//   - each can be written: a device or FIFO weft may write to, or a folder that takes a new
//     file (a probe file is made and removed beside the target, as the real write will);
//   - no two outputs are one file (`--jsonl x --junit x`), except a character device such as
//     /dev/null, which takes any number of writers;
//   - no output is an input (`sweep s.toml --jsonl s.toml`, or the config file);
//   - no output is weft's stdout (`--jsonl /dev/stdout > out.txt`: the rename took the report
//     away; on a pipe the lines would interleave with it), nor its stderr when that is a regular
//     file; a character device is fine. `--trace-text` on stdout is written there, after the
//     report, as `-` is (the CLI turns it into `-` first);
//   - no output replaces a file another process holds a lock on (a running sweep's F.partial:
//     `--junit x.partial` beside `--jsonl x`), nor a stopped sweep's F.partial;
//   - none is `-`: only --trace-text takes `-` for stdout (it is left out of this check); a
//     file named `-` by `--jsonl -` was a trap, so `-` is refused for the others (`./-` names
//     such a file).
// Two paths are one file when they are the same inode or, for a file still to be made, the same
// path once symbolic links (output_target.hpp), `.` and `..` are resolved.

#include <string>
#include <vector>

#include "sim/request/request.hpp"

namespace weft::sim {

struct NamedOutput {
  std::string option;  // "--junit"
  std::string path;
  bool grows = false;  // JSON lines: F.partial beside F is written too (whole_output.hpp)
};

// Throws ConfigError (exit 2) naming the option, the path and what is wrong.
void check_outputs(const std::vector<NamedOutput>& outputs, const std::vector<InputFile>& inputs);

}  // namespace weft::sim
