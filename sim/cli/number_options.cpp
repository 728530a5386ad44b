#include "sim/cli/number_options.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "sim/request/seed_text.hpp"

namespace weft::sim {
namespace {

std::string number_words(std::uint64_t value) {
  return value == std::numeric_limits<std::uint64_t>::max() ? "2^64-1" : std::to_string(value);
}

}  // namespace

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  const std::string words = "a whole number from " + number_words(min) + " to " + number_words(max) + ", in decimal";
  return CLI::Validator(
      [min, max, words](std::string& input) -> std::string {
        std::uint64_t value = 0;
        const bool digits = !input.empty() && input.find_first_not_of("0123456789") == std::string::npos;
        const auto [end, error] = std::from_chars(input.data(), input.data() + input.size(), value);
        if (!digits || error != std::errc{} || end != input.data() + input.size() || value < min || value > max)
          return "'" + input + "' is not " + words;
        input = std::to_string(value);
        return {};
      },
      "", "whole number");
}

CLI::Validator real_number(double min, double max, const std::string& words) {
  return CLI::Validator(
      [min, max, words](std::string& input) -> std::string {
        double value = 0;
        const auto [end, error] = std::from_chars(input.data(), input.data() + input.size(), value);
        if (input.empty() || error != std::errc{} || end != input.data() + input.size() || !std::isfinite(value) ||
            value < min || value > max)
          return "'" + input + "' is not " + words;
        char shortest[64];
        input.assign(shortest, std::to_chars(shortest, shortest + sizeof shortest, value).ptr);
        return {};
      },
      "", "real number");
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        const SeedParse parsed = parse_seed(input);
        if (!parsed.seed) return parsed.problem;
        input = std::to_string(*parsed.seed);
        return {};
      },
      "", "seed");
}

}  // namespace weft::sim
