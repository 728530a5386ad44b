// Schedules given to replay that claim more than happens, and schedule files as other tools save
// them: a schedule with steps left over when the run ends is refused (as one that picks a core
// that cannot move is), so is an empty one; a file with a byte order mark or CR LF replays.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

using weft::testing::line_after;
using weft::testing::run_weft;
using weft::testing::temp_file;

TEST_CASE("replay refuses a schedule with steps left over, and an empty one", "[cli][hardening]") {
  const auto longer =
      run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", "c0:4,c1:4,c2:4,c3:4,c0:999"});
  INFO(longer.out << longer.err);
  CHECK(longer.status == 2);
  CHECK(longer.err.find("the schedule has 1015 steps, but the execution ended after 16 (as deadlock)") !=
        std::string::npos);
  CHECK(longer.out.empty());

  const auto empty = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", ""});
  CHECK(empty.status == 2);
  CHECK(empty.err.find("weft: --schedule: an empty schedule string") != std::string::npos);
}

TEST_CASE("A schedule file with a byte order mark, CR LF or trailing blanks replays", "[cli][hardening]") {
  const std::string schedule = "c0:4,c1:4,c2:4,c3:4";  // seed 5's deadlock, 16 steps
  const auto ran = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", schedule});
  REQUIRE(line_after(ran.out, "run:      ") == "replayed schedule, 16 steps");
  for (const std::string& text : {"\xEF\xBB\xBF" + schedule + "\n", schedule + "\r\n", schedule + " \t\r\n\r\n",
                                  "\xEF\xBB\xBF" + schedule + "\r\n"}) {
    const std::string file = temp_file("saved.schedule", text);
    const auto replayed = run_weft({"replay", "scenarios/barrier_deadlock.toml", "--schedule", "@" + file});
    INFO(replayed.err);
    CHECK(replayed.status == ran.status);
    CHECK(line_after(replayed.out, "run:      ") == "replayed schedule, 16 steps");
    std::filesystem::remove(file);
  }
}
