// explore on a configuration too large to finish: it stops at its memory budget, or within a
// second of SIGINT or SIGTERM, and prints what it found so far (every failure, with
// --keep-going) and why it stopped; the exit status says it is not done (4), or 1 when what it
// found holds an unexpected verdict.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"
#include "terminal.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::line_after;
using weft::testing::run_weft;
using weft::testing::Streams;
using weft::testing::Terminal;
using weft::testing::WeftProcess;

namespace {

// readers with 40 cores: 2^39 interleaving classes.
const std::vector<std::string> huge{"explore", "scenarios/readers6.toml", "--set", "topology.cores_per_device=40"};

}  // namespace

TEST_CASE("explore stops at its memory budget with what it found", "[cli][explore][hardening]") {
  std::vector<std::string> args = huge;
  args.insert(args.end(), {"--set", "memory.host_bytes=3000000"});
  const auto result = run_weft(args);
  INFO(result.out);
  CHECK(result.status == 4);
  const std::string space = line_after(result.out, "space:    ");
  CHECK(space.rfind("stopped at the memory budget: the explorer kept ", 0) == 0);
  CHECK(space.find(" bytes, over the 3000000 of memory.host_bytes") != std::string::npos);
  const auto kept = std::stoull(space.substr(space.find("kept ") + 5));
  CHECK(kept > 3'000'000);
  CHECK(kept < 3'300'000);  // measured often enough to pass it by little
  CHECK(result.out.find("  ok: ") != std::string::npos);
  CHECK(line_after(result.out, "result:   ") == "not done: nothing unexpected so far (expected ok)");
  // The stopping point is a count of runs, not a time: the same every time.
  CHECK(line_after(run_weft(args).out, "runs:     ").substr(0, 12) ==
        line_after(result.out, "runs:     ").substr(0, 12));
}

TEST_CASE("explore stops within a second of SIGINT or SIGTERM, printing its findings", "[cli][explore][hardening]") {
  const auto out = (std::filesystem::temp_directory_path() / "weft_explore_interrupted.txt").string();
  for (const int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    // Race detection on: every run finds the planted races (and runs to its end), --keep-going goes on.
    std::vector<std::string> args = huge;
    args.insert(args.end(), {"--set", "race_detection.enabled=true", "--set", "race_detection.keep_going=true",
                             "--expect", "data_race", "--keep-going"});
    WeftProcess weft(args, Streams{out});
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    const auto sent = std::chrono::steady_clock::now();
    weft.signal(signal);
    const int status = weft.wait().status;
    CHECK(std::chrono::steady_clock::now() - sent < std::chrono::seconds(1));
    CHECK(status == 4);
    const std::string printed = file_text(out);
    INFO(printed);
    CHECK(line_after(printed, "space:    ") ==
          "interrupted (SIGINT, SIGTERM, SIGHUP, or stdout closed): the rest of the space was not run");
    CHECK(printed.find("  data_race: ") != std::string::npos);
    CHECK(printed.find(" --schedule ") != std::string::npos);  // each finding with its reproduce line
    CHECK(line_after(printed, "result:   ") == "not done: nothing unexpected so far (expected data_race)");
  }
  std::filesystem::remove(out);
}

TEST_CASE("An interrupted explore that found an unexpected verdict exits 1", "[cli][explore][hardening]") {
  const auto out = (std::filesystem::temp_directory_path() / "weft_explore_unexpected.txt").string();
  std::vector<std::string> args = huge;
  args.insert(args.end(),
              {"--set", "race_detection.enabled=true", "--set", "race_detection.keep_going=true", "--keep-going"});
  WeftProcess weft(args, Streams{out});
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  weft.signal(SIGINT);
  CHECK(weft.wait().status == 1);
  CHECK(line_after(file_text(out), "result:   ") == "NOT as expected (expected ok)");
  std::filesystem::remove(out);
}

TEST_CASE("explore draws a progress line on a terminal, and none elsewhere", "[cli][explore][hardening]") {
  const Terminal terminal;
  WeftProcess weft(huge, Streams{"/dev/null", terminal.path()});
  const std::string drawn = terminal.read_for(1200);
  weft.signal(SIGINT);
  CHECK(weft.wait().status == 4);
  INFO(drawn);
  CHECK(drawn.find("\r\033[Kexplore: ") != std::string::npos);
  for (const char* part :
       {" runs, ", " runs/s, run of ", " steps, ", " branches waiting, ", " MB kept, of ~", " classes, ~", " left"}) {
    CAPTURE(part);
    CHECK(drawn.find(part) != std::string::npos);
  }
  WeftProcess piped({"explore", "scenarios/readers6.toml"}, Streams{"/dev/null"});
  CHECK(piped.wait().status == 0);
  CHECK(piped.err().empty());
}

TEST_CASE("explore under an address-space limit stops with what it found, as at its budget",
          "[cli][explore][hardening]") {
  // The default budget is half the address-space limit, not half the machine's memory; and an
  // allocation that fails before it (the executable's own mappings count too) stops the
  // exploration as the budget does, with its findings, never "out of host memory" and exit 2.
  // Not under AddressSanitizer, which cannot run under an address-space limit.
#if defined(WEFT_SANITIZE_ADDRESS)
  WARN("not run under AddressSanitizer: it cannot run under an address-space limit");
  return;
#endif
  std::vector<std::string> args = huge;
  args.insert(args.end(), {"--expect", "deadlock", "--keep-going"});
  WeftProcess weft(args, {}, {"/bin/sh", "-c", "ulimit -v 400000 && exec \"$0\" \"$@\""});
  const int status = weft.wait().status;
  INFO(weft.out() << weft.err());
  CHECK(status == 4);  // stopped, and nothing unexpected found: only ok runs
  CHECK(weft.err().find("out of host memory") == std::string::npos);
  const std::string space = line_after(weft.out(), "space:    ");
  CHECK(space.rfind("stopped at the memory budget: ", 0) == 0);
  CHECK(space.find(" bytes, over the 204800000 of memory.host_bytes") != std::string::npos);  // half of 400000 KiB
  CHECK(weft.out().find("  ok: ") != std::string::npos);
  CHECK(line_after(weft.out(), "result:   ") == "not done: nothing unexpected so far (expected deadlock)");
  // A budget above the limit: the allocation fails first, and the exploration stops as at its budget.
  args.insert(args.end(), {"--set", "memory.host_bytes=1000000000"});
  WeftProcess over(args, {}, {"/bin/sh", "-c", "ulimit -v 400000 && exec \"$0\" \"$@\""});
  CHECK(over.wait().status == 4);
  INFO(over.out() << over.err());
  CHECK(line_after(over.out(), "space:    ").rfind("stopped when an allocation failed: ", 0) == 0);
  CHECK(line_after(over.out(), "result:   ") == "not done: nothing unexpected so far (expected deadlock)");
}
