#pragma once
// Output that is written whole or not at all, so that a process killed at any moment (SIGKILL,
// the OOM killer, a CI timeout) never leaves a truncated record behind:
//   - a file is written to a temporary file beside it (F.tmpPID), then renamed over it (rename is atomic
//     within a file system): readers see the old file or the new one, never half of one;
//   - a file of JSON lines that grows during a sweep is written as F.partial, each line with one
//     write(2), and renamed to F when the sweep ends (an interrupted sweep ends too); a killed
//     sweep leaves only F.partial, whose lines are whole; a line cut short by a full disk is cut
//     off again (the file keeps the lines before it); F.partial is locked (flock) while a sweep
//     writes it, so a second sweep given the same file refuses to start;
//   - a report on stdout is composed first and written with one write(2), so a reader of a pipe
//     never sees half a report followed by the next one.
// The first two hold for regular files (and names not yet taken); a device or a FIFO is written
// in place, and a symbolic link is followed to what it names (output_target.hpp).

#include <ostream>
#include <string>
#include <string_view>

namespace weft::sim {

// Writes all of `data` to `fd`: one write(2) unless the kernel takes less (then the rest follows
// at once). False, with errno set, when it cannot.
bool write_all(int fd, std::string_view data);

// Throws ConfigError (a usage error: exit 2) naming the path when it cannot write.
void write_file_whole(const std::string& path, std::string_view contents);

// The same, for a file written in pieces (a report too large to compose in memory): the pieces
// go to the temporary file, and commit() renames it into place; destroyed uncommitted, it
// leaves nothing behind. A device or a FIFO receives the pieces in place.
class WholeFile {
 public:
  explicit WholeFile(const std::string& path);
  WholeFile(const WholeFile&) = delete;
  WholeFile& operator=(const WholeFile&) = delete;
  ~WholeFile();
  void write(std::string_view data);
  void commit();

 private:
  std::string path_;
  std::string target_;     // the regular file the temporary one becomes
  std::string temporary_;  // empty when written in place
  int fd_ = -1;
};

// Writes `record` to `out` in one piece (one write(2) when `out` is the process's stdout).
void write_record(std::ostream& out, std::string_view record);

// A JSON lines file that appears under its name only once complete (see above). Throws
// ConfigError naming F.partial when another sweep holds it, or when a line cannot be written.
class JsonLinesFile {
 public:
  explicit JsonLinesFile(const std::string& path);
  JsonLinesFile(const JsonLinesFile&) = delete;
  JsonLinesFile& operator=(const JsonLinesFile&) = delete;
  ~JsonLinesFile();  // leaves F.partial when not committed
  void write(const std::string& line);
  // Renames F.partial to F.
  void commit();
  // Removes F.partial when it holds nothing but its header: a run refused (exit status 2) before
  // it found anything leaves no file that reads as a killed run's shard. One with findings stays.
  void discard_if_bare();
  // F.partial (a shorter name when that one is too long: aside_name.hpp).
  static std::string partial_path(const std::string& path);

 private:
  std::string path_;
  std::string target_;  // the regular file F.partial becomes; empty when written in place
  int fd_ = -1;
  std::size_t whole_bytes_ = 0;  // the whole lines written so far
  std::size_t lines_ = 0;        // and how many
};

}  // namespace weft::sim
