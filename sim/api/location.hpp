#pragma once
// Where a kernel called the API: a file and a line, as reports name it. A C++ kernel's comes
// from the call site (`Location loc = Location::current()` as a default argument captures the
// caller's, as std::source_location does); a kernel in another language (python/) gives the
// file and line of its own source. The file name must outlive every report that names it: a
// string literal, or a name the binding keeps for as long as its scenarios live.

#include <cstdint>
#include <source_location>

namespace weft::sim {

class Location {
 public:
  constexpr Location() = default;
  constexpr Location(const char* file, std::uint_least32_t line) : file_(file), line_(line) {}
  // The caller's location, when used as a default argument.
  static constexpr Location current(std::source_location here = std::source_location::current()) {
    return {here.file_name(), here.line()};
  }

  constexpr const char* file_name() const { return file_; }
  constexpr std::uint_least32_t line() const { return line_; }

 private:
  const char* file_ = "";
  std::uint_least32_t line_ = 0;
};

}  // namespace weft::sim
