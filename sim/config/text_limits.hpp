#pragma once
// Internal to weft_config: limits a TOML text must meet before it is parsed, so that a hostile
// file gives a clear error rather than exhausting memory or the stack.
//   - size: at most max_text_bytes (a config or scenario file is a few hundred bytes; toml++
//     needs tens of bytes per value, and a big file could hold millions of values);
//   - keys: no line with more than max_key_depth dotted parts (toml++ builds and destroys
//     nested tables recursively, so a key of some tens of thousands of parts overflows the
//     stack; weft's own keys have at most three);
//   - values: arrays and inline tables nested at most max_value_depth deep (toml++ parses them
//     recursively, some 1.3 KiB of stack a level in an optimised build: its own limit of 256
//     levels took 340 KiB; weft's values nest two deep at most).
// So parsing a text that passes takes well under 100 KiB of stack (stack_limit.hpp asks for more).

#include <cstddef>
#include <optional>
#include <string_view>

namespace weft::sim::detail {

inline constexpr std::size_t max_text_bytes = 1024 * 1024;
inline constexpr int max_key_depth = 64;
inline constexpr int max_value_depth = 32;

struct TextPosition {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
};

struct TooDeep {
  TextPosition at;
  bool key = false;  // true: the offending dot of a key; false: the bracket or brace opening one level too many
};

// The first place where the text passes max_key_depth dotted key parts on one line (dots in
// strings, comments and between digits do not count) or max_value_depth nested arrays and inline
// tables (brackets and braces in strings and comments do not count), if any.
std::optional<TooDeep> too_deep(std::string_view text);

}  // namespace weft::sim::detail
