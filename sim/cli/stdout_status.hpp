#pragma once
// A command's exit status holds only if what it printed reached stdout. A full disk, /dev/full,
// or a closed stdout make writes fail quietly (a stream just sets a flag), so `weft merge ... >
// merged.jsonl` on a full disk would exit 0 with half the lines missing. At exit, stdout is
// flushed and its state read: a failed write turns the status into 2 (as a file that cannot be
// written does), with a message on stderr.

namespace weft::sim {

// `status`, or 2 when a write to stdout failed.
int with_stdout_checked(int status);

}  // namespace weft::sim
