#include "sim/config/text_limits.hpp"

#include <string>

namespace weft::sim::detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<TooDeep> too_deep(std::string_view text) {
  TextPosition at{1, 0};
  int dots = 0;   // on this line
  int depth = 0;  // arrays and inline tables open here (across lines: an array may span several)
  bool comment = false;
  char quote = 0;          // the quote of the string we are in, if any
  bool multiline = false;  // ... and whether it is a triple-quoted one
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      at = {at.line + 1, 0};
      dots = 0;
      comment = false;
      if (!multiline) quote = 0;  // an unterminated string ends at the line (a syntax error anyway)
      continue;
    }
    ++at.column;
    if (comment) continue;
    if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
        ++at.column;
      } else if (c == quote && (!multiline || text.substr(i, 3) == std::string(3, quote))) {
        if (multiline) i += 2, at.column += 2;
        quote = 0;
        multiline = false;
      }
      continue;
    }
    if (c == '#') {
      comment = true;
    } else if (c == '"' || c == '\'') {
      quote = c;
      multiline = text.substr(i, 3) == std::string(3, c);
      if (multiline) i += 2, at.column += 2;
    } else if (c == '[' || c == '{') {
      if (++depth > max_value_depth) return TooDeep{at, false};
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;  // one too many is toml++'s syntax error to report
    } else if (c == '.' && !(i > 0 && is_digit(text[i - 1]) && i + 1 < text.size() && is_digit(text[i + 1]))) {
      if (++dots > max_key_depth) return TooDeep{at, true};
    }
  }
  return std::nullopt;
}

}  // namespace weft::sim::detail
