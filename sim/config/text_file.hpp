#pragma once
// Internal to weft_config: reading a whole config or scenario file.

#include <filesystem>
#include <string>

namespace weft::sim::detail {

// The file's bytes; a missing or unreadable file throws ConfigError (line 0, column 0).
std::string read_text_file(const std::filesystem::path& path);

}  // namespace weft::sim::detail
