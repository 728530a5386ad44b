// explore's findings for CI (sim/cli/explore_output.hpp): --jsonl and --junit with the fields of
// a sweep's, written whole (F.partial renamed to F) when the exploration ends, exhausted, cut by
// a bound or interrupted; weft merge refuses them by name.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "sweep_lines.hpp"
#include "weft_process.hpp"

using weft::testing::failure_lines;
using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::line_after;
using weft::testing::lines_of;
using weft::testing::run_weft;
using weft::testing::Streams;
using weft::testing::WeftProcess;

namespace {

using Json = nlohmann::json;

Json first_line(const std::string& path) { return Json::parse(lines_of(file_text(path)).front()); }
Json last_line(const std::string& path) { return Json::parse(lines_of(file_text(path)).back()); }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("explore --jsonl and --junit write each failing verdict as a sweep writes a finding",
          "[cli][explore][findings]") {
  const auto jsonl = fresh_path("explore_findings.jsonl");
  const auto junit = fresh_path("explore_findings.xml");
  const auto result = run_weft({"explore", "scenarios/dma_read_before_wait_race.toml", "--expect", "ok", "--keep-going",
                                "--jsonl", jsonl, "--junit", junit});
  INFO(result.out << result.err);
  CHECK(result.status == 1);
  CHECK_FALSE(std::filesystem::exists(jsonl + ".partial"));

  const Json header = first_line(jsonl);
  CHECK(header["header"] == true);
  CHECK(header["explore"] == true);
  const std::string scenario = header["scenario"];
  CHECK(result.out.find("explore:  " + scenario) == 0);
  CHECK(header["expected"] == "ok");
  CHECK(header["keep_going"] == true);
  CHECK(header["config_digest"].get<std::string>().size() == 16);

  const auto failures = failure_lines(file_text(jsonl));
  REQUIRE(failures.size() >= 1);
  const Json failure = Json::parse(failures.front());
  CHECK(failure["scenario"] == scenario);
  CHECK(failure["verdict"] == "data_race");
  CHECK(failure["expected"] == "ok");
  CHECK(failure["signature"] == line_after(result.out, "    signature: "));
  CHECK(failure["sites"].size() == 2);
  CHECK(failure["sites"][0]["access"].is_string());
  CHECK(failure["runs"].get<std::uint64_t>() >= 1);
  CHECK(failure["reproduce"].get<std::string>().find(" replay ") != std::string::npos);
  CHECK(failure["reproduce"].get<std::string>().find(" --schedule " + failure["schedule"].get<std::string>()) !=
        std::string::npos);
  CHECK(result.out.find(failure["reproduce"].get<std::string>()) != std::string::npos);  // as stdout prints it

  const Json summary = last_line(jsonl);
  CHECK(summary["summary"] == true);
  CHECK(summary["explore"] == true);
  CHECK(summary["scenario"] == scenario);
  CHECK(summary["space"] == "exhausted");
  CHECK(summary["complete"] == true);
  CHECK(summary["as_expected"] == false);
  CHECK(summary["failures"] == failures.size());
  CHECK(summary["runs"].get<std::uint64_t>() >= failure["runs"].get<std::uint64_t>());

  // A testcase per failing verdict, named by its signature, failing; one for the runs that were ok.
  const std::string xml = file_text(junit);
  CHECK(xml.find("<testsuite name=\"weft explore " + scenario + "\"") != std::string::npos);
  CHECK(xml.find(" failures=\"" + std::to_string(failures.size()) + "\" errors=\"0\"") != std::string::npos);
  CHECK(count_of(xml, "<failure type=\"") == failures.size());
  CHECK(xml.find("<failure type=\"data_race\"") != std::string::npos);
  CHECK(xml.find(" runs ok\"/>") != std::string::npos);
}

TEST_CASE("explore's JUnit passes a failure it expects, and fails one it expects and never finds",
          "[cli][explore][findings]") {
  const auto found = fresh_path("explore_expected.xml");
  CHECK(run_weft({"explore", "scenarios/barrier_deadlock.toml", "--set", "topology.devices=2", "--junit", found})
            .status == 0);
  const std::string passed = file_text(found);
  CHECK(passed.find(" failures=\"0\" errors=\"0\"") != std::string::npos);
  CHECK(passed.find("as expected (deadlock); the first replays with ") != std::string::npos);
  const auto missing = fresh_path("explore_not_found.xml");
  CHECK(run_weft({"explore", "scenarios/lastzero4.toml", "--expect", "deadlock", "--junit", missing}).status == 1);
  const std::string failed = file_text(missing);
  CHECK(failed.find(" failures=\"1\" errors=\"0\"") != std::string::npos);
  CHECK(failed.find("name=\"expected deadlock, not found\"") != std::string::npos);
  CHECK(failed.find("<failure type=\"not_found\"") != std::string::npos);
}

TEST_CASE("An exploration cut by a bound writes its files, with the estimated size of its space",
          "[cli][explore][findings][estimate]") {
  const auto jsonl = fresh_path("explore_bound.jsonl");
  const auto result = run_weft({"explore", "scenarios/readers6.toml", "--max-executions", "20", "--jsonl", jsonl});
  INFO(result.out << result.err);
  CHECK(result.status == 0);
  const std::string estimate =
      line_after(result.out, "space:    cut short by a bound (--max-executions or --preemption-bound)\n          ");
  CHECK(estimate.rfind("20 of an estimated ", 0) == 0);
  CHECK(estimate.find(" classes (") != std::string::npos);
  CHECK(estimate.find(" runs/s with 1 job") != std::string::npos);
  const Json summary = last_line(jsonl);
  CHECK(summary["space"] == "bound");
  CHECK(summary["complete"] == true);
  CHECK(summary["runs"] == 20);
  CHECK(summary["max_executions"] == 20);
  CHECK(summary["estimated_classes"].get<double>() > 20);
  CHECK(failure_lines(file_text(jsonl)).empty());
}

TEST_CASE("An interrupted exploration still writes its JSON lines and JUnit report, as incomplete",
          "[cli][explore][findings][hardening]") {
  const auto jsonl = fresh_path("explore_interrupted.jsonl");
  const auto junit = fresh_path("explore_interrupted.xml");
  // readers with 40 cores: 2^39 interleaving classes.
  WeftProcess weft({"explore", "scenarios/readers6.toml", "--set", "topology.cores_per_device=40", "--jsonl", jsonl,
                    "--junit", junit},
                   Streams{"/dev/null"});
  CHECK(weft.wait_until([&] { return std::filesystem::exists(jsonl + ".partial"); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  weft.signal(SIGINT);
  CHECK(weft.wait().status == 4);
  CHECK_FALSE(std::filesystem::exists(jsonl + ".partial"));
  CHECK(first_line(jsonl)["header"] == true);
  const Json summary = last_line(jsonl);
  CHECK(summary["space"] == "interrupted");
  CHECK(summary["complete"] == false);
  CHECK(summary["interrupted"] == true);
  CHECK(summary["incomplete"].get<std::string>().rfind("interrupted (SIGINT or SIGTERM) after ", 0) == 0);
  const std::string xml = file_text(junit);
  CHECK(xml.find(" errors=\"1\"") != std::string::npos);
  CHECK(xml.find("<error type=\"incomplete\" message=\"interrupted (SIGINT or SIGTERM) after ") != std::string::npos);
}

TEST_CASE("An exploration stopped at its memory budget writes its files, as incomplete",
          "[cli][explore][findings][hardening]") {
  const auto jsonl = fresh_path("explore_out_of_memory.jsonl");
  const auto junit = fresh_path("explore_out_of_memory.xml");
  const auto result = run_weft({"explore", "scenarios/readers6.toml", "--set", "topology.cores_per_device=40", "--set",
                                "memory.host_bytes=3000000", "--jsonl", jsonl, "--junit", junit});
  INFO(result.out << result.err);
  CHECK(result.status == 4);
  const Json summary = last_line(jsonl);
  CHECK(summary["space"] == "out_of_memory");
  CHECK(summary["complete"] == false);
  CHECK(summary["out_of_memory"] == true);
  CHECK(summary["estimated_classes"].get<double>() > summary["runs"].get<double>());
  CHECK(summary["incomplete"].get<std::string>().rfind("stopped at the memory budget (memory.host_bytes) after ", 0) ==
        0);
  CHECK(file_text(junit).find("<error type=\"incomplete\" message=\"stopped at the memory budget") !=
        std::string::npos);
  // stdout says how far it got of how many classes.
  CHECK(result.out.find(" of an estimated ") != std::string::npos);
}
