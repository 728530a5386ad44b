#pragma once
// Seeds as a user types them (`--seed N`, `--seeds A..B`): whole numbers from 0 to 2^64-1,
// always in decimal. Every seed of the command line is read here, so `--seed 010` and
// `--seeds 010..010` both run seed 10 (a C-style reader takes 010 as octal 8), and a number past
// 2^64-1 is refused rather than clamped to the largest seed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace weft::sim {

// The range of seeds, in words, for error messages.
inline constexpr std::string_view seed_range_words =
    "a whole number from 0 to 2^64-1 (18446744073709551615), in decimal";

// The seed `text` names, or why it names none ("is above the largest seed ..."; empty when the
// text is a seed).
struct SeedParse {
  std::optional<std::uint64_t> seed;
  std::string problem;
};
SeedParse parse_seed(std::string_view text);

}  // namespace weft::sim
