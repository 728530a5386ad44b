#pragma once
// The source lines one execution's accesses were issued at, each kept once, so that an access
// record holds a 32-bit index rather than the line (model/access_record.hpp).
//
// Contract. index(line) gives the same index for equal lines (the same file pointer and line
// number) and at(index) gives the line back. Indices are given in order of first use, so they
// depend on the execution alone, never on addresses. A small cache, keyed by the line number's
// low bits, finds a line used before without a search; a miss searches the table (a kernel has
// a few dozen lines) and adds the line if new, the only time the table allocates.

#include <array>
#include <cstdint>
#include <vector>

#include "model/failure.hpp"

namespace weft::model {

class LineTable {
 public:
  std::uint32_t index(SourceLine line) {
    std::uint32_t& cached = cache_[static_cast<std::uint32_t>(line.line) % cache_.size()];
    if (cached < lines_.size() && same(lines_[cached], line)) return cached;
    cached = find_or_add(line);
    return cached;
  }
  SourceLine at(std::uint32_t index) const { return lines_[index]; }

 private:
  static bool same(SourceLine a, SourceLine b) { return a.line == b.line && a.file == b.file; }
  std::uint32_t find_or_add(SourceLine line) {
    for (std::uint32_t i = 0; i < lines_.size(); ++i)
      if (same(lines_[i], line)) return i;
    lines_.push_back(line);
    return static_cast<std::uint32_t>(lines_.size() - 1);
  }

  std::array<std::uint32_t, 64> cache_{};  // by line number modulo 64: an index to try first
  std::vector<SourceLine> lines_;
};

}  // namespace weft::model
