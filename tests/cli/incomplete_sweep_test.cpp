// Sweeps never claim more than they ran: one stopped by SIGINT, SIGTERM or --time-budget says
// "complete": false in its JSON summary, has an error testcase in its JUnit report, says
// INCOMPLETE on stdout and exits non-zero (4 without failures, 1 with); a range of more seeds
// than a sweep can count is refused.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::run_weft;
using weft::testing::WeftProcess;

namespace {

nlohmann::json last_line(const std::string& text) {
  const auto end = text.find_last_not_of('\n');
  REQUIRE(end != std::string::npos);
  const auto start = text.rfind('\n', end);
  return nlohmann::json::parse(text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start + 1)));
}

// The JSON summary, the JUnit report and stdout all say the sweep is incomplete, and agree on
// how many seeds ran.
void check_incomplete(const std::string& jsonl, const std::string& junit, const std::string& out, const char* why) {
  const auto summary = last_line(file_text(jsonl));
  CAPTURE(summary.dump());
  CHECK(summary["summary"] == true);
  CHECK(summary["complete"] == false);
  const auto executions = summary["executions"].get<std::uint64_t>();
  const auto planned = summary["planned"].get<std::uint64_t>();
  CHECK(executions < planned);
  CHECK(summary["stopped_before_seed"].get<std::uint64_t>() >= executions);
  CHECK(summary["incomplete"].get<std::string>().find(why) != std::string::npos);
  const std::string xml = file_text(junit);
  CHECK(xml.find("errors=\"1\"") != std::string::npos);
  CHECK(xml.find("name=\"incomplete: " + std::to_string(executions) + " of " + std::to_string(planned) +
                 " seeds run\"") != std::string::npos);
  CHECK(xml.find("<error type=\"incomplete\"") != std::string::npos);
  CHECK(out.find("sweep: INCOMPLETE: " + std::string(why)) != std::string::npos);
}

}  // namespace

TEST_CASE("A keep-going sweep stopped by a signal is incomplete, with failures and without", "[cli][sweep]") {
  struct Case {
    const char* scenario;
    const char* expect;
    int signal;
    int status;  // 1: failures were found, 4: none were
  };
  for (const Case& c : {Case{"scenarios/two_cores_one_output_race.toml", "ok", SIGINT, 1},
                        Case{"scenarios/two_cores_one_output_race.toml", "ok", SIGTERM, 1},
                        Case{"scenarios/ring_all_gather.toml", "ok", SIGTERM, 4},
                        Case{"scenarios/ring_all_gather.toml", "ok", SIGINT, 4}}) {
    CAPTURE(c.scenario, c.signal);
    const auto jsonl = fresh_path("signalled.jsonl");
    const auto junit = fresh_path("signalled.xml");
    // Shrinking left on: an interrupted sweep skips it.
    WeftProcess sweep({"sweep", c.scenario, "--seeds", "0..100000000", "--expect", c.expect, "--keep-going", "--jsonl",
                       jsonl, "--junit", junit});
    REQUIRE(sweep.wait_until([&] { return std::filesystem::exists(jsonl + ".partial"); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sweep.signal(c.signal);
    const auto ended = sweep.wait();
    CHECK(ended.status == c.status);
    check_incomplete(jsonl, junit, sweep.out(), "interrupted (SIGINT, SIGTERM, SIGHUP, or stdout closed)");
    CHECK(last_line(file_text(jsonl))["interrupted"] == true);
    CHECK((sweep.out().find("shrinking skipped: the sweep was interrupted") != std::string::npos) == (c.status == 1));
  }
}

TEST_CASE("A sweep out of time is incomplete, with failures and without", "[cli][sweep]") {
  for (const bool failing : {false, true}) {
    CAPTURE(failing);
    const auto jsonl = fresh_path("budget.jsonl");
    const auto junit = fresh_path("budget.xml");
    const auto result = run_weft({"sweep", failing ? "scenarios/two_cores_one_output_race.toml" : "ring_all_gather",
                                  "--seeds", "0..100000000", "--expect", "ok", "--keep-going", "--shrink-budget", "0",
                                  "--time-budget", "0.2", "--jsonl", jsonl, "--junit", junit});
    CHECK(result.status == (failing ? 1 : 4));
    check_incomplete(jsonl, junit, result.out, "out of time (--time-budget)");
    CHECK(last_line(file_text(jsonl))["out_of_time"] == true);
  }
}

TEST_CASE("A sweep that stops at its first failure, as asked, is complete", "[cli][sweep]") {
  const auto jsonl = fresh_path("first_failure.jsonl");
  const auto result = run_weft({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0..99", "--expect",
                                "ok", "--shrink-budget", "0", "--jsonl", jsonl});
  CHECK(result.status == 1);
  const auto summary = last_line(file_text(jsonl));
  CHECK(summary["complete"] == true);
  CHECK(summary["executions"] == 1);
  CHECK(summary["stopped_before_seed"] == 1);
  CHECK(result.out.find("INCOMPLETE") == std::string::npos);
}

TEST_CASE("A seed range holds at most 2^64 - 1 seeds", "[cli][sweep]") {
  const auto jsonl = fresh_path("overflow.jsonl");
  const auto refused = run_weft({"sweep", "ring_all_gather", "--seeds", "0..18446744073709551615", "--jsonl", jsonl});
  CHECK(refused.status == 2);
  CHECK(refused.err.find("0..18446744073709551615 holds 2^64 seeds") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(jsonl + ".partial"));
  for (const char* shard : {"0/1", "1/2"}) {
    CAPTURE(shard);
    CHECK(run_weft({"sweep", "ring_all_gather", "--seeds", "0..18446744073709551615", "--shard", shard}).status == 2);
  }

  const auto widest = run_weft(
      {"sweep", "ring_all_gather", "--seeds", "0..18446744073709551614", "--time-budget", "0.1", "--jsonl", jsonl});
  CHECK(widest.status == 4);
  CHECK(last_line(file_text(jsonl))["planned"] == 18446744073709551615ull);
  const auto last =
      run_weft({"sweep", "ring_all_gather", "--seeds", "18446744073709551615..18446744073709551615", "--jsonl", jsonl});
  CHECK(last.status == 0);
  CHECK(last.out.find(": 1 executions, 0 not as expected") != std::string::npos);
  const auto top_shard = run_weft({"sweep", "ring_all_gather", "--seeds", "18446744073709551610..18446744073709551615",
                                   "--shard", "3/4", "--jsonl", jsonl});
  CHECK(top_shard.status == 0);
  CHECK(last_line(file_text(jsonl))["executions"] == 2);  // ...611 and ...615, the last seed there is
}
