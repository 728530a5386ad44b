#pragma once
// The whole contents of a file, for tests that read what weft wrote.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace weft::testing {

// The whole contents of a file (empty when it cannot be read).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace weft::testing
