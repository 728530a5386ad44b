#pragma once
// Internal to weft_config: reading a whole config or scenario file.

#include <filesystem>
#include <string>

namespace weft::sim::detail {

// The file's bytes; a missing, unreadable or too large file, or one that is not a regular file
// (a folder, a device, a FIFO, a socket), throws ConfigError (line 0, column 0). Never blocks
// and never holds more than max_text_bytes (text_limits.hpp) of it.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace weft::sim::detail
