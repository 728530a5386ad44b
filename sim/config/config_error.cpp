#include "sim/config/config_error.hpp"

#include <utility>

namespace weft::sim {

std::string format_config_error(std::string_view source, int line, int column, std::string_view key,
                                std::string_view message) {
  std::string text{source};
  if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
  text += ": ";
  if (!key.empty()) {
    text += "key '";
    text += key;
    text += "': ";
  }
  text += message;
  return text;
}

ConfigError::ConfigError(std::string source_name, int line_number, int column_number,
                         std::string dotted_key, std::string text)
    : std::runtime_error(
          format_config_error(source_name, line_number, column_number, dotted_key, text)),
      source(std::move(source_name)),
      line(line_number),
      column(column_number),
      key(std::move(dotted_key)),
      message(std::move(text)) {}

}  // namespace weft::sim
