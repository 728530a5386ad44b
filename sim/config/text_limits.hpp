#pragma once
// Internal to weft_config: limits a TOML text must meet before it is parsed, so that a hostile
// file gives a clear error rather than exhausting memory or the stack.
//   - size: at most max_text_bytes (a config or scenario file is a few hundred bytes; toml++
//     needs tens of bytes per value, and a big file could hold millions of values);
//   - nesting: no line with more than max_key_depth dotted parts (toml++ builds and destroys
//     nested tables recursively, so a key of some tens of thousands of parts overflows the
//     stack; weft's own keys have at most three). Inline tables and arrays are limited by
//     toml++ itself (TOML_MAX_NESTED_VALUES).

#include <cstddef>
#include <optional>
#include <string_view>

namespace weft::sim::detail {

inline constexpr std::size_t max_text_bytes = 1024 * 1024;
inline constexpr int max_key_depth = 64;

struct TextPosition {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
};

// Where the first line with more than max_key_depth dotted key parts has its offending dot
// (dots in strings, comments and between digits do not count), if any.
std::optional<TextPosition> too_deep_key(std::string_view text);

}  // namespace weft::sim::detail
