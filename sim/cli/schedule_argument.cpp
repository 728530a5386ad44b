#include "sim/cli/schedule_argument.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "sim/cli/aside_name.hpp"
#include "sim/cli/line_reader.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"
#include "sim/request/config_digest.hpp"

namespace weft::sim {
namespace {

constexpr int most_names = 100;  // name.schedule, name-2.schedule, ...

[[noreturn]] void cannot_write(const std::string& path) {
  throw ConfigError(path, 0, 0, "", std::string("cannot write the file: ") + std::strerror(errno));
}

// Whether the file at `path` holds exactly `text`.
bool holds(const std::string& path, const std::string& text) {
  try {
    LineReader reader(path, text.size() + 1);
    const auto line = reader.next();
    return line && std::string(*line) + "\n" == text && !reader.next();
  } catch (const ConfigError&) {
    return false;
  }
}

// Makes `path` hold `text` without ever replacing a file there: written whole to a temporary
// file, then linked to `path` (link(2) fails when the name is taken). False when `path` holds
// something else; a file there with the same text is taken as it is (the same reproduce line).
bool place_without_replacing(const std::string& path, const std::string& text) {
  const std::string temporary = aside_name(path, ".tmp" + std::to_string(::getpid()));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) cannot_write(path);
  const bool written = write_all(fd, text);
  const bool closed = ::close(fd) == 0;
  const bool linked = written && closed && ::link(temporary.c_str(), path.c_str()) == 0;
  const int error = errno;
  ::unlink(temporary.c_str());
  if (linked) return true;
  errno = error;
  if (written && closed && error == EEXIST) return holds(path, text);
  cannot_write(path);
}

}  // namespace

std::string ScheduleArgument::word() const { return shell_quote(file ? "@" + *file : schedule); }

ScheduleFiles::ScheduleFiles(const Request& request, const std::optional<std::string>& output) {
  std::error_code error;
  const bool beside = output && *output != "-" &&
                      (!std::filesystem::exists(*output, error) || std::filesystem::is_regular_file(*output, error));
  prefix_ = beside ? *output : "weft-" + request.scenario->name + "." + config_digest(request).substr(0, 8);
}

ScheduleArgument ScheduleFiles::argument(const scheduler::Schedule& schedule, const std::string& name,
                                         bool to_file) const {
  ScheduleArgument argument{scheduler::encode(schedule), std::nullopt};
  if (argument.schedule.size() <= longest_schedule_argument) return argument;
  argument.left_out = !to_file;
  if (!to_file) return argument;
  try {
    for (int number = 1; number <= most_names && !argument.file; ++number) {
      const std::string path = prefix_ + "." + name + (number > 1 ? "-" + std::to_string(number) : "") + ".schedule";
      if (place_without_replacing(path, argument.schedule + "\n")) argument.file = path;
    }
    if (!argument.file) {
      errno = EEXIST;
      cannot_write(prefix_ + "." + name + ".schedule");
    }
  } catch (const ConfigError& error) {
    std::cerr << "weft: " << error.what() << " (the reproduce line carries the schedule itself, "
              << argument.schedule.size() << " characters: longer than a command-line argument may be)\n";
  }
  return argument;
}

std::string read_schedule_word(const std::string& word) {
  if (word.empty())
    throw ConfigError("--schedule", 0, 0, "", "an empty schedule string (give the one a reproduce line printed)");
  if (!word.starts_with("@")) return word;
  const std::string path = word.substr(1);
  LineReader reader(path, std::size_t{64} << 20);
  const auto line = reader.next();
  // A file saved by another editor: a UTF-8 byte order mark first, CR LF or spaces at the end.
  std::string_view text = line.value_or("");
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty()) throw ConfigError(path, 1, 0, "", "holds no schedule");
  std::string schedule(text);
  while (const auto more = reader.next())
    if (more->find_first_not_of(" \t\r") != std::string_view::npos)
      throw ConfigError(path, reader.line_number(), 0, "", "a second line: a schedule file holds one schedule string");
  return schedule;
}

}  // namespace weft::sim
