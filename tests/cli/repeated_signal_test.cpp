// A signal sent twice is one request to stop: coreutils' `timeout` sends SIGTERM to weft and then
// to its process group, so weft receives it twice at once; it must still write its summary and
// its files (sim/cli/interrupt.hpp). SIGHUP stops it as SIGTERM does, and so does a stdout
// whose reader has gone (`| head`), with the files written.

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::line_after;
using weft::testing::Streams;
using weft::testing::WeftProcess;

namespace {

// True once the process catches `signal` (/proc/PID/status, SigCgt): its handlers are installed.
bool catches(pid_t pid, int signal) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1) & 1) != 0;
  return false;
}

// Started, its handlers in place, and left to run `delay_ms` more.
void let_run(const WeftProcess& weft, int delay_ms) {
  REQUIRE(weft.wait_until([&] { return catches(weft.pid(), SIGTERM); }, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
}

// SIGTERM to the process and then to its group, as `timeout` sends it.
void terminate_as_timeout_does(WeftProcess& weft) {
  weft.signal(SIGTERM);
  weft.signal_group(SIGTERM);
}

const std::vector<std::string> huge_explore{"explore", "scenarios/readers6.toml", "--set",
                                            "topology.cores_per_device=40"};

std::vector<std::string> endless_sweep(const std::string& jsonl, const std::string& junit) {
  return {"sweep",        "scenarios/barrier_deadlock.toml",
          "--expect",     "ok",
          "--keep-going", "--seeds",
          "0..9999999",   "--jsonl",
          jsonl,          "--junit",
          junit};
}

// The sweep's summary on stdout, and both files whole.
void check_sweep_ended_whole(WeftProcess& weft, const std::string& jsonl, const std::string& junit) {
  const int status = weft.wait().status;
  const std::string out = weft.out();
  INFO(out << weft.err());
  CHECK((status == 1 || status == 4));
  CHECK(line_after(out, "sweep: INCOMPLETE: ").find("interrupted") != std::string::npos);
  CHECK(std::filesystem::exists(jsonl));
  CHECK(!std::filesystem::exists(jsonl + ".partial"));
  CHECK(file_text(jsonl).find("\"interrupted\":true") != std::string::npos);
  CHECK(file_text(junit).find("</testsuites>") != std::string::npos);
}

}  // namespace

TEST_CASE("A sweep sent SIGTERM twice at once (as timeout does) writes its summary and files", "[cli][hardening]") {
  const auto jsonl = fresh_path("twice.jsonl");
  const auto junit = fresh_path("twice.xml");
  for (int iteration = 0; iteration < 60; ++iteration) {
    CAPTURE(iteration);
    std::filesystem::remove(jsonl);
    std::filesystem::remove(junit);
    WeftProcess weft(endless_sweep(jsonl, junit));
    let_run(weft, iteration * 7 % 120);
    terminate_as_timeout_does(weft);
    check_sweep_ended_whole(weft, jsonl, junit);
  }
}

TEST_CASE("An explore sent SIGTERM twice at once (as timeout does) prints its report", "[cli][explore][hardening]") {
  for (int iteration = 0; iteration < 60; ++iteration) {
    CAPTURE(iteration);
    WeftProcess weft(huge_explore);
    let_run(weft, iteration * 7 % 120);
    terminate_as_timeout_does(weft);
    CHECK(weft.wait().status == 4);
    const std::string out = weft.out();
    INFO(out << weft.err());
    CHECK(line_after(out, "space:    ").rfind("interrupted", 0) == 0);
    CHECK(line_after(out, "result:   ") == "not done: nothing unexpected so far (expected ok)");
  }
}

TEST_CASE("explore under coreutils' timeout prints its report", "[cli][explore][hardening]") {
  for (const char* seconds : {"0.6", "0.8", "1"}) {
    CAPTURE(seconds);
    WeftProcess weft(huge_explore, {}, {"timeout", seconds});
    CHECK(weft.wait().status == 124);  // timeout's own: the command timed out
    CHECK(weft.out().find("result:   not done") != std::string::npos);
  }
}

TEST_CASE("A second signal of another kind still ends weft at once", "[cli][hardening]") {
  WeftProcess weft(huge_explore);
  let_run(weft, 0);
  weft.signal(SIGTERM);
  weft.signal(SIGINT);
  const int status = weft.wait().status;  // whichever of the two was handled second
  CHECK((status == 128 + SIGINT || status == 128 + SIGTERM));
}

TEST_CASE("SIGHUP stops a sweep as SIGTERM does", "[cli][hardening]") {
  const auto jsonl = fresh_path("hup.jsonl");
  const auto junit = fresh_path("hup.xml");
  WeftProcess weft(endless_sweep(jsonl, junit));
  let_run(weft, 50);
  weft.signal(SIGHUP);
  weft.signal_group(SIGHUP);
  check_sweep_ended_whole(weft, jsonl, junit);
}

TEST_CASE("A sweep whose stdout reader has gone stops with its files written", "[cli][hardening]") {
  const auto jsonl = fresh_path("head.jsonl");
  const auto junit = fresh_path("head.xml");
  // head takes the first line and exits; weft writes nothing more until its summary.
  WeftProcess shell(endless_sweep(jsonl, junit), {},
                    {"bash", "-c", "set -o pipefail; \"$@\" | head -1 >/dev/null", "bash"});
  const auto ended = shell.wait();
  INFO(shell.err());
  CHECK(ended.status == 2);  // weft's (pipefail): what it printed is incomplete
  CHECK(ended.seconds < 20);
  CHECK(shell.err().find("weft: cannot write to stdout") != std::string::npos);
  CHECK(std::filesystem::exists(jsonl));
  CHECK(!std::filesystem::exists(jsonl + ".partial"));
  CHECK(file_text(jsonl).find("\"interrupted\":true") != std::string::npos);
  CHECK(file_text(junit).find("</testsuites>") != std::string::npos);
}
