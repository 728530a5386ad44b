#include "sim/config/text_file.hpp"

#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include "sim/config/config_error.hpp"
#include "sim/config/text_limits.hpp"

namespace weft::sim::detail {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string message) {
  throw ConfigError(path.string(), 0, 0, "", std::move(message));
}

}  // namespace

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) fail(path, "cannot read the file: it does not exist");
  if (!std::filesystem::is_regular_file(status))
    fail(path, "cannot read the file: it is not a regular file");
  if (const auto bytes = std::filesystem::file_size(path, error); !error && bytes > max_text_bytes)
    fail(path, "cannot read the file: it is too large (" + std::to_string(bytes) + " bytes; a config or scenario file holds at most " +
                   std::to_string(max_text_bytes) + ")");
  std::ifstream stream(path, std::ios::binary);
  if (!stream.is_open()) fail(path, "cannot read the file: it cannot be opened");
  std::string text{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
  if (stream.bad()) fail(path, "cannot read the file: reading failed");
  return text;
}

}  // namespace weft::sim::detail
