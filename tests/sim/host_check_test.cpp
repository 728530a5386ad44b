// The scenarios' host-side comparison: it finds the first differing element wherever it lies
// relative to its blocks, treats NaN as different from everything, and passes equal data.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "scenarios/kernels/host_check.hpp"

using weft::scenarios::first_difference;

TEST_CASE("first_difference names the first differing element, in any block", "[scenarios][host_check]") {
  for (const Eigen::Index size : {1, 255, 256, 257, 1000}) {
    Eigen::ArrayXf want = Eigen::ArrayXf::LinSpaced(size, 0.0F, static_cast<float>(size - 1));
    REQUIRE(first_difference("out", 0, want, want).empty());
    for (const Eigen::Index wrong : {Eigen::Index{0}, size / 2, size - 1}) {
      Eigen::ArrayXf got = want;
      got[wrong] = -1.0F;
      if (wrong + 1 < size) got[size - 1] = -2.0F;  // a later difference must not be the one named
      const std::string message = first_difference("out", 3, got, want);
      CAPTURE(size, wrong, message);
      REQUIRE(message.find("out on device 3, element " + std::to_string(wrong) + ": got -1") == 0);
    }
  }
}

TEST_CASE("first_difference reports a NaN, even against a NaN", "[scenarios][host_check]") {
  Eigen::ArrayXf want = Eigen::ArrayXf::Zero(300);
  Eigen::ArrayXf got = want;
  got[299] = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(first_difference("x", 1, got, want) == "x on device 1, element 299: got nan, expected 0.000000");
  want[299] = got[299];
  REQUIRE_FALSE(first_difference("x", 1, got, want).empty());
}
