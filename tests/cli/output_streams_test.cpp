// Outputs that are weft's own stdout or stderr, another sweep's locked scratch file, or a FIFO
// nobody reads, run through the executable (a real stdout): the report is never lost to an
// output renamed over it, /dev/stdout and /proc/self/fd/N of a pipe are written as the
// descriptor they stand for, a running sweep's F.partial is never replaced, and a signal stops
// weft while it waits for a FIFO's reader.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::Streams;
using weft::testing::WeftProcess;

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> deadlock{"run", "scenarios/barrier_deadlock.toml", "--seed", "7"};
const std::vector<std::string> sweep{"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Runs weft with its stdout (and stderr) into a pipe read by `cat`, which writes the file
// WeftProcess reads as out(); weft's own status is printed on stderr.
std::vector<std::string> through_a_pipe(const std::string& redirections) {
  return {"/bin/sh", "-c", "{ \"$0\" \"$@\" " + redirections + "; echo \"weft status $?\" >&2; } | cat"};
}

}  // namespace

TEST_CASE("The text trace on weft's own stdout follows the report there", "[cli][hardening]") {
  for (const std::string stdout_name : {"/dev/stdout", "/proc/self/fd/1"}) {
    CAPTURE(stdout_name);
    const std::string out = fresh_path("trace_on_stdout.txt");
    WeftProcess weft(with(deadlock, {"--trace-text", stdout_name}), Streams(out));
    CHECK(weft.wait().status == 0);
    const std::string text = file_text(out);
    INFO(text << weft.err());
    const auto report = text.find("verdict:  deadlock");
    const auto trace = text.find("weft trace\n");
    CHECK(report != std::string::npos);
    REQUIRE(trace != std::string::npos);
    CHECK(report < trace);
    CHECK(text.find("     0  c2    device 2 core 0  allocate") > trace);
  }
  // On a pipe too: the report, then the trace (it was "No such file or directory").
  WeftProcess piped(with(deadlock, {"--trace-text", "/dev/stdout"}), {}, through_a_pipe(""));
  piped.wait();
  INFO(piped.out() << piped.err());
  CHECK(piped.err().find("weft status 0") != std::string::npos);
  CHECK(piped.out().find("verdict:  deadlock") < piped.out().find("weft trace\n"));
}

TEST_CASE("An output on weft's stdout other than --trace-text is refused before running", "[cli][hardening]") {
  const std::string out = fresh_path("jsonl_on_stdout.txt");
  WeftProcess weft(with(sweep, {"--jsonl", "/dev/stdout"}), Streams(out));
  CHECK(weft.wait().status == 2);
  CHECK(weft.err().find("weft: --jsonl: cannot write '/dev/stdout': it is weft's stdout") != std::string::npos);
  CHECK(file_text(out).empty());  // nothing ran
  WeftProcess junit(with(sweep, {"--junit", "/proc/self/fd/1"}), {}, through_a_pipe(""));
  junit.wait();
  CHECK(junit.err().find("weft status 2") != std::string::npos);
  CHECK(junit.err().find("it is weft's stdout") != std::string::npos);
}

TEST_CASE("/dev/stderr and /proc/self/fd/2 on a pipe are written into it", "[cli][hardening]") {
  for (const std::string stderr_name : {"/dev/stderr", "/proc/self/fd/2"}) {
    CAPTURE(stderr_name);
    // stderr into the pipe, stdout away: the pipe gets the trace and nothing else.
    WeftProcess weft(with(deadlock, {"--trace", stderr_name}), {}, through_a_pipe("2>&1 >/dev/null"));
    weft.wait();
    INFO(weft.out() << weft.err());
    CHECK(weft.err().find("weft status 0") != std::string::npos);
    CHECK(weft.out().find("\"traceEvents\"") != std::string::npos);
  }
}

TEST_CASE("An output never replaces another sweep's F.partial", "[cli][hardening]") {
  const std::string partial = fresh_path("held.jsonl") + ".partial";
  std::ofstream(partial) << "{\"header\":true}\n";
  const int fd = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);  // as a running sweep holds it
  for (const std::string option : {"--trace-text", "--trace"}) {
    WeftProcess weft(with(deadlock, {option, partial}));
    CHECK(weft.wait().status == 2);
    CHECK(weft.err().find("another process holds its lock") != std::string::npos);
  }
  WeftProcess junit(with(sweep, {"--junit", partial}));
  CHECK(junit.wait().status == 2);
  ::close(fd);
  // Unlocked, it is a stopped sweep's lines, which merge reads: refused too.
  WeftProcess stopped(with(deadlock, {"--trace-text", partial}));
  CHECK(stopped.wait().status == 2);
  CHECK(stopped.err().find("it is the F.partial of a sweep that stopped") != std::string::npos);
  CHECK(file_text(partial) == "{\"header\":true}\n");
  fs::remove(partial);
}

TEST_CASE("SIGTERM stops weft while it waits for a FIFO's reader", "[cli][hardening]") {
  const std::string fifo = fresh_path("unread.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  WeftProcess weft(with(sweep, {"--jsonl", fifo}));
  REQUIRE(weft.wait_until([&] { return weft.err().find("waiting for a reader") != std::string::npos; }));
  weft.signal(SIGTERM);
  const auto ended = weft.wait();
  INFO(weft.err());
  CHECK(ended.status == 2);
  CHECK(ended.seconds < 2);
  CHECK(weft.err().find("no reader opened before weft was asked to stop") != std::string::npos);
  fs::remove(fifo);
}
