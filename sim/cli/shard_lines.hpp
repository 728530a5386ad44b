#pragma once
// One shard's JSON lines (sweep_output.hpp) as `weft merge` reads them: checked line by line in
// constant memory (LineReader: a line holds at most 8 MiB), so that what is not a sweep's
// output is refused (exit 2, naming the file and line) instead of being added up.
//
// What is checked:
//   - line 1 is a sweep's header (an exploration's, weft explore --jsonl's, is refused as such): the sweep's identity,
//   the shard "I/N" (I < N) and its planned
//     seed count, which must be the count of seeds s of the range with s % N == I;
//   - every failure line carries the header's scenario and expected verdict, a seed that is an
//     integer of 0..2^64-1 (not -1, 1.5, 1e3 or "3"), in the range, of this shard, and above the
//     previous line's (a sweep writes them in seed order), and a signature that is a string (or,
//     in the lines of a weft older than signatures, none, and a verdict that is a string);
//   - a summary line, if any, is the last line; it repeats the header, and its counts add up:
//     failures is the number of failure lines, executions lies between them and planned, a seed
//     it stopped before lies above every failure.
// A file without a summary line (the F.partial of a sweep that was killed, or whose disk filled,
// or of one still running: it holds the file's lock, and the note says so) is a shard cut short: its failures are its
// lines, and its executions are the shard's seeds up to its last failure (a sweep releases seeds in order, so every one
// of them ran). Its last line, if it has no newline (the tail of a write cut short), is left out.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/cli/line_reader.hpp"
#include "sim/sweep/shard.hpp"
#include "sim/sweep/sweep.hpp"

namespace weft::sim {

struct ShardLines {
  std::string path;
  nlohmann::ordered_json header;
  SeedRange seeds;
  Shard shard;
  std::uint64_t planned = 0;
  std::uint64_t failures = 0;    // failure lines
  std::uint64_t executions = 0;  // from the summary, or recounted from the lines
  bool summarised = false;       // it has a summary line
  bool complete = false;         // ... which says the shard is complete
  bool interrupted = false;
  bool out_of_time = false;
  std::string note;  // why it is not complete, in words
};

// Reads and checks the whole file; throws ConfigError naming the file and line.
ShardLines read_shard_lines(const std::string& path);

// A failure line as written, with its seed and what it counts under: its signature, or its
// verdict when it has none (a line of an older weft).
struct FailureLine {
  std::uint64_t seed = 0;
  std::string signature;
  std::string text;
};

// A checked shard's failure lines again, in order.
class FailureLines {
 public:
  explicit FailureLines(const ShardLines& shard);
  std::optional<FailureLine> next();

 private:
  LineReader reader_;
  std::uint64_t left_;
};

}  // namespace weft::sim
