#include "sim/request/seed_text.hpp"

#include <charconv>

namespace weft::sim {

SeedParse parse_seed(std::string_view text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits)
    return {std::nullopt, "'" + std::string(text) + "' is not a seed: a seed is " + std::string(seed_range_words)};
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range || end != text.data() + text.size())
    return {std::nullopt, std::string(text) + " is above the largest seed, 2^64-1 (18446744073709551615)"};
  return {value, {}};
}

}  // namespace weft::sim
