#include "sim/cli/schedule_argument.hpp"

#include <filesystem>
#include <iostream>

#include "sim/cli/line_reader.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {

std::string ScheduleArgument::word() const { return shell_quote(file ? "@" + *file : schedule); }

ScheduleFiles::ScheduleFiles(const Request& request, const std::optional<std::string>& output) {
  std::error_code error;
  const bool beside = output && *output != "-" &&
                      (!std::filesystem::exists(*output, error) || std::filesystem::is_regular_file(*output, error));
  prefix_ = beside ? *output : "weft-" + request.scenario->name;
}

ScheduleArgument ScheduleFiles::argument(const scheduler::Schedule& schedule, const std::string& name) const {
  ScheduleArgument argument{scheduler::encode(schedule), std::nullopt};
  if (argument.schedule.size() <= longest_schedule_argument) return argument;
  const std::string path = prefix_ + "." + name + ".schedule";
  try {
    write_file_whole(path, argument.schedule + "\n");
    argument.file = path;
  } catch (const ConfigError& error) {
    std::cerr << "weft: " << error.what() << " (the reproduce line carries the schedule itself, "
              << argument.schedule.size() << " characters: longer than a command-line argument may be)\n";
  }
  return argument;
}

std::string read_schedule_word(const std::string& word) {
  if (!word.starts_with("@")) return word;
  const std::string path = word.substr(1);
  LineReader reader(path, std::size_t{64} << 20);
  const auto line = reader.next();
  if (!line || line->empty()) throw ConfigError(path, 1, 0, "", "holds no schedule");
  std::string schedule(*line);
  if (reader.next()) throw ConfigError(path, 2, 0, "", "a second line: a schedule file holds one schedule string");
  return schedule;
}

}  // namespace weft::sim
