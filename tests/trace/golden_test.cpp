// Golden text traces (scenarios/golden/NAME.txt): each is replayed from the schedule on its own
// `schedule:` line and must come out identical. scenarios/golden/README.md says how to
// regenerate one after an intended change.
#include <catch2/catch.hpp>

#include "trace_test_support.hpp"

using weft::testing::file_text;
using weft::testing::run_weft;
using weft::testing::trace_path;

TEST_CASE("golden text traces replay identically", "[trace]") {
  for (const std::string name : {"right_permute", "barrier_deadlock", "dma_read_before_wait_race"}) {
    CAPTURE(name);
    const std::string golden_path = std::string(WEFT_SOURCE_DIR) + "/scenarios/golden/" + name + ".txt";
    const std::string golden = file_text(golden_path);
    REQUIRE_FALSE(golden.empty());
    const std::string schedule = weft::testing::line_after(golden, "\nschedule: ");
    const std::string out = trace_path("golden_" + name + ".txt");
    const auto result =
        run_weft({"replay", "scenarios/" + name + ".toml", "--schedule", schedule, "--trace-text", out});
    REQUIRE(result.status == 0);
    const std::string actual = file_text(out);
    INFO("if the change is intended, regenerate " << golden_path << " (scenarios/golden/README.md)");
    CHECK(actual == golden);
  }
}
