// Numbers on the command line: every numeric option refuses NaN, infinities, words, signs, hex
// and values out of its range with exit 2, naming the range in words; whole numbers are read in
// decimal (010 is ten); seeds run exactly the seed typed.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_runner.hpp"

using weft::testing::line_after;
using weft::testing::run_weft;

namespace {

// The command with `option value` appended exits 2 naming the option, and runs nothing.
void check_refused(std::vector<std::string> command, const std::string& option, const std::string& value,
                   const std::string& expected) {
  command.push_back(option);
  command.push_back(value);
  CAPTURE(command);
  const auto result = run_weft(command);
  CHECK(result.status == 2);
  CHECK(result.err.find(option + ": ") != std::string::npos);
  CHECK(result.err.find(expected) != std::string::npos);
  CHECK(result.err.find("e+308") == std::string::npos);
  CHECK(result.err.find("179769313486") == std::string::npos);  // DBL_MAX, in full, was the range
  CHECK(result.out.empty());
}

}  // namespace

TEST_CASE("Real-number options refuse NaN, infinities and what is not a number", "[cli][hardening]") {
  const std::vector<std::string> run{"run", "right_permute"};
  const std::vector<std::string> sweep{"sweep", "right_permute", "--seeds", "0..3"};
  for (const std::string value :
       {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-1", "86401", "0x10", "", "ten"})
    check_refused(run, "--watchdog", value, "is not a number of seconds from 0 to 86400");
  for (const std::string value : {"nan", "inf", "-inf", "0", "-0.5", "1e999", "soon"})
    check_refused(sweep, "--time-budget", value, "is not a number of seconds above 0");
  CHECK(run_weft({"run", "right_permute", "--watchdog", "2.5e1"}).status == 0);
}

TEST_CASE("Whole-number options are decimal and within their range", "[cli][hardening]") {
  const std::vector<std::string> sweep{"sweep", "right_permute", "--seeds", "0..3"};
  const std::vector<std::string> explore{"explore", "scenarios/readers6.toml"};
  for (const std::string value : {"0", "257", "0x2", "-1", "1.5", "nan", "99999999999999999999"})
    check_refused(sweep, "--jobs", value, "is not a whole number from 1 to 256, in decimal");
  check_refused(sweep, "--shard-count", "-2", "is not a whole number from 1 to 2^64-1, in decimal");
  check_refused(sweep, "--shard-count", "18446744073709551616", "is not a whole number from 1 to 2^64-1");
  check_refused(sweep, "--shrink-budget", "1e3", "is not a whole number from 0 to");
  check_refused(explore, "--max-executions", "inf", "is not a whole number from 0 to 2^64-1");
  check_refused(explore, "--preemption-bound", "2147483648", "is not a whole number from 0 to 2147483647");
  check_refused(explore, "--preemption-bound", "-1", "is not a whole number from 0 to 2147483647");
  // Leading zeros are zeros, not octal: --max-executions 010 runs ten.
  const auto ten = run_weft({"explore", "scenarios/readers6.toml", "--max-executions", "010"});
  CHECK(line_after(ten.out, "runs:     ").rfind("10 complete", 0) == 0);
}

TEST_CASE("A seed is read in decimal, and one past 2^64-1 is refused", "[cli][hardening]") {
  for (const std::string command : {"run", "replay"}) {
    const std::vector<std::string> base{command, "right_permute"};
    check_refused(base, "--seed", "18446744073709551616", "is above the largest seed, 2^64-1 (18446744073709551615)");
    check_refused(base, "--seed", "99999999999999999999999", "is above the largest seed");
    for (const std::string value : {"-3", "0x10", "1e3", "+5", " 5", "nan", ""})
      check_refused(base, "--seed", value,
                    "a seed is a whole number from 0 to 2^64-1 (18446744073709551615), in decimal");
  }
  CHECK(line_after(run_weft({"run", "right_permute", "--seed", "010"}).out, "run:      ").rfind("seed 10,", 0) == 0);
  CHECK(line_after(run_weft({"run", "right_permute", "--seed", "18446744073709551615"}).out, "run:      ")
            .rfind("seed 18446744073709551615,", 0) == 0);
}

TEST_CASE("A seed range is A..B or one seed, in decimal, naming what is wrong", "[cli][hardening]") {
  const auto one = run_weft({"sweep", "right_permute", "--seeds", "5"});
  CHECK(one.status == 0);
  CHECK(one.out.find("seeds 5..5: 1 executions") != std::string::npos);
  const auto octal_looking = run_weft({"sweep", "right_permute", "--seeds", "010..010"});
  CHECK(octal_looking.out.find("seeds 10..10: 1 executions") != std::string::npos);
  const std::vector<std::pair<std::string, std::string>> refused{
      {"0..18446744073709551616", "18446744073709551616 is above the largest seed, 2^64-1 (18446744073709551615)"},
      {"18446744073709551616", "is above the largest seed"},
      {"5..3", "5 is above 3"},
      {"-1..3", "'-1' is not a seed"},
      {"0x10..20", "'0x10' is not a seed"},
      {"1...3", "'.3' is not a seed"},
      {"..", "'' is not a seed"},
  };
  for (const auto& [seeds, expected] : refused) {
    CAPTURE(seeds);
    const auto result = run_weft({"sweep", "right_permute", "--seeds", seeds});
    CHECK(result.status == 2);
    CHECK(result.err.find("'" + seeds + "' is not a seed range") != std::string::npos);
    CHECK(result.err.find(expected) != std::string::npos);
  }
}
