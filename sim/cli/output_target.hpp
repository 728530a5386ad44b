#pragma once
// What an output path names, so that weft writes where the user pointed, as `command > PATH`
// would, and still never leaves half a file behind:
//   - a regular file, or a name that does not exist yet: written aside (F.tmpPID, F.partial)
//     and renamed over it, so that it is whole or absent (whole_output.hpp);
//   - a device (/dev/null, a terminal) or a FIFO: written in place. Renaming over it would
//     replace the device (as root) or the FIFO with a regular file;
//   - a symbolic link: followed, through links to links, dangling or not, to what it names,
//     which is then one of the above; the link itself stays a link. A path that names a device
//     or a FIFO through links is written in place under the name given: so /dev/stdout,
//     /dev/stderr and /proc/self/fd/N of a pipe, whose last link names no path ("pipe:[N]"),
//     are opened as the open descriptor they stand for.
// A folder, a socket or a loop of links cannot be written: `problem` says which.

#include <string>

namespace weft::sim {

struct OutputTarget {
  std::string path;       // what is written: the path given, its symbolic links followed
  bool in_place = false;  // open `path` and write to it; else write aside and rename onto it
  std::string problem;    // why it cannot be written ("it is a folder"); empty when it can
};

OutputTarget output_target(const std::string& path);

// Whether `path` (its links followed) is the file open as descriptor `fd` (1: stdout): the same
// device and inode.
bool same_file_as(const std::string& path, int fd);

}  // namespace weft::sim
