// How big an exploration is, in words (sim/cli/estimate_text.hpp): counts, durations, and an
// estimate too large to count (one that overflowed to infinity included).

#include <catch2/catch.hpp>

#include <limits>

#include "sim/cli/estimate_text.hpp"

using namespace weft::sim;

TEST_CASE("Counts and durations read as a person says them", "[cli]") {
  CHECK(grouped(1263) == "1,263");
  CHECK(approximate(41200) == "41,200");
  CHECK(approximate(3.1e6) == "3.1 million");
  CHECK(approximate(2.3e12) == "2.3 trillion");
  CHECK(duration_text(41 * 60) == "41 min");
  CHECK(space_estimate(2000, 3.1e6, 1263, 1) ==
        "2,000 of an estimated 3.1 million classes (0.065 %), about 41 min at "
        "1,263 runs/s with 1 job");
}

TEST_CASE("An estimate past 10^18 classes, or infinite, is said to be too many, not printed as inf", "[cli]") {
  const double infinite = std::numeric_limits<double>::infinity();
  CHECK(approximate(infinite) == "more than 10^18");
  CHECK(approximate(2e30) == "more than 10^18");
  CHECK(space_estimate(10, infinite, 3.5, 2) ==
        "10 of an estimated more than 10^18 classes (too many to finish), at 4 runs/s with 2 jobs");
  CHECK(space_estimate(10, std::numeric_limits<double>::quiet_NaN(), 3.5, 1).find("inf") == std::string::npos);
}
