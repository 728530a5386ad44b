#include "sim/plugin/version_rule.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace weft::sim {
namespace {

using Version = std::array<std::uint64_t, 4>;  // MAJOR, MINOR, PATCH, TWEAK

std::optional<Version> parse(std::string_view text) {
  Version version{};
  std::size_t parts = 0;
  std::size_t at = 0;
  while (true) {
    if (parts == version.size()) return std::nullopt;
    std::size_t digits = 0;
    std::uint64_t value = 0;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits) {
      if (digits == 9) return std::nullopt;  // no version component is that large
      value = value * 10 + static_cast<std::uint64_t>(text[at] - '0');
    }
    if (digits == 0) return std::nullopt;
    version[parts++] = value;
    if (at == text.size()) break;
    if (text[at++] != '.') return std::nullopt;
  }
  if (parts < 2) return std::nullopt;
  return version;
}

}  // namespace

bool works_with(std::string_view built_against, std::string_view running) {
  const auto wanted = parse(built_against);
  const auto have = parse(running);
  if (!wanted || !have) return false;
  return (*wanted)[0] == (*have)[0] && (*wanted)[1] == (*have)[1] && *wanted <= *have;
}

}  // namespace weft::sim
