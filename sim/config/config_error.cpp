#include "sim/config/config_error.hpp"

#include <utility>

namespace weft::sim {
std::string control_escaped(std::string_view text, bool keep_line_breaks) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (keep_line_breaks && c == '\n') {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_config_error(std::string_view source, int line, int column, std::string_view key,
                                std::string_view message) {
  std::string text = control_escaped(source);
  if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
  text += ": ";
  if (!key.empty()) {
    text += "key '";
    text += control_escaped(key);
    text += "': ";
  }
  text += control_escaped(message);
  return text;
}

ConfigError::ConfigError(std::string source_name, int line_number, int column_number, std::string dotted_key,
                         std::string text)
    : std::runtime_error(format_config_error(source_name, line_number, column_number, dotted_key, text)),
      source(std::move(source_name)),
      line(line_number),
      column(column_number),
      key(std::move(dotted_key)),
      message(std::move(text)) {}

}  // namespace weft::sim
