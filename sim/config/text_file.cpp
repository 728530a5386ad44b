#include "sim/config/text_file.hpp"

#include "sim/config/config_error.hpp"
#include "sim/config/regular_file.hpp"
#include "sim/config/text_limits.hpp"

namespace weft::sim::detail {

std::string read_text_file(const std::filesystem::path& path) {
  const RegularFile file(path.string());
  // The size is checked as the bytes come, not from stat: a file can grow, and files of /proc
  // report 0 bytes whatever they hold.
  std::string text;
  char chunk[64 * 1024];
  while (const std::size_t got = file.read(chunk, sizeof chunk)) {
    if (text.size() + got > max_text_bytes)
      throw ConfigError(path.string(), 0, 0, "",
                        "cannot read the file: it is too large (more than " + std::to_string(max_text_bytes) +
                            " bytes; a config or scenario file holds at most that)");
    text.append(chunk, got);
  }
  return text;
}

}  // namespace weft::sim::detail
