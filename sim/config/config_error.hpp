#pragma once
// The one error type of configuration and usage mistakes: a bad config file, scenario file or
// --set argument. It names where the mistake is (source, 1-based line and column) and which
// dotted key it concerns, so the command line can print it as one clickable line.

#include <stdexcept>
#include <string>
#include <string_view>

namespace weft::sim {

struct ConfigError : std::runtime_error {
  // `source`: a file path, "--set" or "<embedded default>". `line` and `column` are 1-based;
  // 0 means "no position" (an unreadable file). `key` is the dotted key ("dma.execution"),
  // empty when there is none (a TOML syntax error in a file).
  ConfigError(std::string source, int line, int column, std::string key, std::string message);

  std::string source;
  int line;
  int column;
  std::string key;
  std::string message;  // what() without the "SOURCE:LINE:COLUMN: key 'KEY': " prefix
};

// The full one-line text of what(): "SOURCE:LINE:COLUMN: key 'KEY': MESSAGE". The position is
// left out when line is 0, the key part when key is empty. Control characters in any part are
// written as escapes (\n, \x1b), so the text is always one line.
// `text` with its control characters (C0 and DEL) written as C escapes (\n, \t, \x1b), so text
// from a file prints as it reads and never drives a terminal (ESC, BEL); line breaks kept when asked.
std::string control_escaped(std::string_view text, bool keep_line_breaks = false);

std::string format_config_error(std::string_view source, int line, int column, std::string_view key,
                                std::string_view message);

}  // namespace weft::sim
