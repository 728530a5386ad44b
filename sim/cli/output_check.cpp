#include "sim/cli/output_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "sim/cli/aside_name.hpp"
#include "sim/cli/file_lock.hpp"
#include "sim/cli/output_target.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

// A file as the kernel knows it (device and inode) when it exists, else by its resolved path.
struct FileIdentity {
  std::optional<std::pair<dev_t, ino_t>> inode;
  std::string resolved;
  bool character_device = false;

  bool same_as(const FileIdentity& other) const {
    if (inode || other.inode) return inode == other.inode;
    return resolved == other.resolved;
  }
};

FileIdentity identity_of(const std::string& path) {
  FileIdentity identity;
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    identity.inode = std::pair{status.st_dev, status.st_ino};
    identity.character_device = S_ISCHR(status.st_mode);
  }
  std::error_code ignored;
  identity.resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ignored), ignored).string();
  return identity;
}

struct WrittenFile {
  const NamedOutput* output;
  std::string path;  // the target itself, or its F.partial
  FileIdentity identity;
};

[[noreturn]] void refuse(const NamedOutput& output, const std::string& why) {
  throw ConfigError(output.option, 0, 0, "", "cannot write '" + output.path + "': " + why);
}

// Whether weft can write `target` as it will: in place, or by making a file beside it.
void check_writable(const NamedOutput& output, const std::string& file, bool in_place) {
  if (in_place) {
    if (::access(file.c_str(), W_OK) != 0) refuse(output, std::strerror(errno));
    return;
  }
  const std::string probe = aside_name(file, ".tmp" + std::to_string(::getpid()));  // the name the write uses
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) refuse(output, std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

// A regular file another process writes under a lock (a running sweep's F.partial), or a
// stopped sweep's F.partial (which weft merge reads): replacing either loses its lines.
void check_not_held(const NamedOutput& output, const std::string& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return;  // not there yet
  if (locked_by_another(file))
    refuse(output,
           "another process holds its lock (a weft sweep writing it as its F.partial?); wait for it to end, "
           "or name another file");
  if (file.ends_with(".partial"))
    refuse(output,
           "it is the F.partial of a sweep that stopped (weft merge reads it); merge or remove it first, or "
           "name another file");
}

// An output on weft's own stdout or stderr (/dev/stdout, /proc/self/fd/1, or its file by name):
// renaming a file over it would take it away from the reports, and on a stream the records
// would interleave with them. A character device (/dev/null, a terminal) takes both.
void check_not_standard(const NamedOutput& output, const std::string& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) == 0 && S_ISCHR(status.st_mode)) return;
  if (same_file_as(file, STDOUT_FILENO))
    refuse(output,
           "it is weft's stdout, where the report goes (only --trace-text writes there, after the report); "
           "name a file of its own");
  if (same_file_as(file, STDERR_FILENO) && S_ISREG(status.st_mode))
    refuse(output, "it is weft's stderr, where its messages go; name a file of its own");
}

}  // namespace

void check_outputs(const std::vector<NamedOutput>& outputs, const std::vector<InputFile>& inputs) {
  std::vector<WrittenFile> written;
  for (const NamedOutput& output : outputs) {
    if (output.path ==
        "-")  // read as stdout by habit, but this output is a file: refused, not written as one named '-'
      refuse(output,
             "'-' is not stdout for this option (only --trace-text - writes to stdout); name a file (./- for "
             "one named '-')");
    const OutputTarget target = output_target(output.path);
    if (!target.problem.empty()) refuse(output, target.problem);
    check_not_standard(output, target.path);
    if (!target.in_place) check_not_held(output, target.path);
    check_writable(output, target.path, target.in_place);
    written.push_back({&output, target.path, identity_of(target.path)});
    if (output.grows && !target.in_place) {
      const std::string partial = JsonLinesFile::partial_path(target.path);
      written.push_back({&output, partial, identity_of(partial)});
    }
  }
  for (std::size_t i = 0; i < written.size(); ++i) {
    for (const InputFile& input : inputs)
      if (written[i].identity.same_as(identity_of(input.path.string())))
        refuse(*written[i].output, "it is the " + input.role + " (" + input.path.string() + "), an input");
    for (std::size_t j = 0; j < i; ++j) {
      if (written[j].output == written[i].output || !written[i].identity.same_as(written[j].identity)) continue;
      if (written[i].identity.character_device) continue;  // /dev/null takes any number of writers
      refuse(*written[i].output, written[j].output->option + " writes it too (" + written[j].path +
                                     "); give each output a file of its own");
    }
  }
}

}  // namespace weft::sim
