#pragma once
// How the command line reads numbers. CLI11 alone reads 010 as octal 8 and 0x10 as 16, clamps
// 18446744073709551616 to the largest value, and lets NaN through every range check (NaN
// compares false with everything): `--watchdog nan` left the watchdog spinning on a NaN tick
// and `--time-budget nan` meant no budget at all. So every numeric option goes through one of
// these transforms, which refuse what is not a number in range, name the range in words, and
// hand CLI11 a plain decimal it cannot misread:
//   whole_number(min, max)       decimal digits only, min..max; leading zeros are just zeros
//   real_number(min, max, words) a finite number from min to max (NaN and infinities refused)
//   seed_number()                a seed (sim/request/seed_text.hpp)

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace weft::sim {

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);
// `words` says the range in the error message: "a number of seconds from 0 to 86400".
CLI::Validator real_number(double min, double max, const std::string& words);
CLI::Validator seed_number();

}  // namespace weft::sim
