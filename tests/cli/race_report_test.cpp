#include "cli_runner.hpp"

using weft::testing::line_after;
using weft::testing::run_weft;

namespace {

// Splits "prog replay ARGS..." (as the report prints it, unquoted words only) into arguments.
std::vector<std::string> words_after_program(const std::string& command) {
  std::istringstream stream(command);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  words.erase(words.begin());  // the program
  return words;
}

}  // namespace

TEST_CASE("every racy scenario is caught within 100 seeds, and its printed commands replay the identical report",
          "[cli][race]") {
  for (const char* file :
       {"scenarios/dma_read_before_wait_race.toml", "scenarios/two_cores_one_output_race.toml",
        "scenarios/all_core_barrier_missing_race.toml", "scenarios/ring_all_gather_early_reuse_race.toml",
        "scenarios/ring_wrong_direction_race.toml"}) {
    for (const char* mode : {"async", "on_wait", "eager"}) {
      CAPTURE(file, mode);
      const std::string set = std::string("dma.execution=") + mode;
      const auto sweep = run_weft({"sweep", file, "--seeds", "0..99", "--set", set, "--expect", "ok"});
      REQUIRE(sweep.status == 1);
      REQUIRE(sweep.out.find("verdict:  data_race (expected ok: NOT as expected)") != std::string::npos);
      const std::string report = sweep.out.substr(0, sweep.out.find("\n\n") + 1);  // the first report only

      const auto by_seed = run_weft(words_after_program(line_after(report, "reproduce:\n  ")));
      CHECK(by_seed.status == 1);
      CHECK(by_seed.out == report);

      const std::string schedule_command =
          line_after(report, "reproduce:\n  " + line_after(report, "reproduce:\n  ") + "\n  ");
      const auto by_schedule = run_weft(words_after_program(schedule_command));
      CHECK(by_schedule.status == 1);
      CHECK(line_after(by_schedule.out, "what happened:\n") == line_after(report, "what happened:\n"));
      const auto findings = [](const std::string& text) {
        const auto from = text.find("what happened:");
        return text.substr(from, text.find("reproduce:") - from);
      };
      CHECK(findings(by_schedule.out) == findings(report));
      CHECK(line_after(by_schedule.out, "--schedule ") == line_after(report, "--schedule "));
    }
  }
}

TEST_CASE("a race report names both accesses with actor, operation, buffer, rectangle, line and step", "[cli][race]") {
  const auto result = run_weft({"run", "scenarios/two_cores_one_output_race.toml", "--seed", "0"});
  CHECK(result.status == 0);
  CHECK(result.out.find("data race on hbm buffer 1 'out' f32[2, 128] on device ") != std::string::npos);
  CHECK(result.out.find("store [0:1, 0:128] by device ") != std::string::npos);
  CHECK(result.out.find("at race_examples.cpp:") != std::string::npos);
  CHECK(result.out.find(", step ") != std::string::npos);
  CHECK(result.out.find("neither happens before the other") != std::string::npos);
}

TEST_CASE("with keep_going the race detector collects each distinct race once", "[cli][race]") {
  const auto result = run_weft({"run", "scenarios/all_core_barrier_missing_race.toml", "--seed", "1", "--set",
                                "race_detection.keep_going=true"});
  CHECK(result.status == 0);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = result.out.find(what); at != std::string::npos; at = result.out.find(what, at + 1)) ++n;
    return n;
  };
  // Two source lines touch the board (the post and the read), so only that pair can race; the
  // output buffer's rows are disjoint. Every device races on its board, which is one logical
  // buffer (same id everywhere): one report.
  CHECK(count("data race on hbm buffer 1 'board'") == 1);
  CHECK(count("data race on") == 1);
}
