// Output integrity: files appear whole or not at all, and a sweep killed in the middle leaves
// no truncated record behind (only F.partial, whose lines are whole).

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "sim/cli/whole_output.hpp"
#include "weft_process.hpp"

using weft::testing::run_weft;
using weft::testing::WeftProcess;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder of this test process's own: suites run at once (worktrees, CI jobs) never share files.
std::filesystem::path own_folder() {
  const auto folder = std::filesystem::temp_directory_path() / ("weft_whole_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  return folder;
}

std::string fresh_path(const std::string& name) {
  const auto path = (own_folder() / ("weft_whole_" + name)).string();
  std::filesystem::remove(path);
  std::filesystem::remove(weft::sim::JsonLinesFile::partial_path(path));
  return path;
}

// Every line ends with a newline and is a JSON object.
void check_whole_lines(const std::string& text) {
  REQUIRE_FALSE(text.empty());
  CHECK(text.back() == '\n');
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    CAPTURE(line);
    CHECK(nlohmann::json::parse(line).is_object());
  }
}

}  // namespace

TEST_CASE("A file is replaced whole, with no temporary file left behind", "[cli][hardening]") {
  const auto path = fresh_path("file.txt");
  weft::sim::write_file_whole(path, "first\n");
  weft::sim::write_file_whole(path, "second, longer\n");
  CHECK(read(path) == "second, longer\n");
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    CHECK(entry.path().filename().string().rfind("weft_whole_file.txt.tmp", 0) == std::string::npos);
  CHECK_THROWS_AS(weft::sim::write_file_whole("/no/such/folder/file.txt", "x"), std::runtime_error);
}

TEST_CASE("A JSON lines file appears under its name only when committed", "[cli][hardening]") {
  const auto path = fresh_path("lines.jsonl");
  {
    weft::sim::JsonLinesFile file(path);
    file.write(R"({"seed":1})");
    CHECK_FALSE(std::filesystem::exists(path));
    check_whole_lines(read(weft::sim::JsonLinesFile::partial_path(path)));
    file.write(R"({"summary":true})");
    file.commit();
  }
  CHECK(read(path) == "{\"seed\":1}\n{\"summary\":true}\n");
  CHECK_FALSE(std::filesystem::exists(weft::sim::JsonLinesFile::partial_path(path)));
  {
    weft::sim::JsonLinesFile abandoned(fresh_path("abandoned.jsonl"));
    abandoned.write(R"({"seed":2})");
  }  // not committed: only the .partial file stays
  CHECK_FALSE(std::filesystem::exists(own_folder() / "weft_whole_abandoned.jsonl"));
}

TEST_CASE("A sweep's JSON lines file is complete after the sweep", "[cli][hardening]") {
  const auto path = fresh_path("sweep.jsonl");
  const auto result = run_weft({"sweep", "right_permute", "--seeds", "0..9", "--expect", "deadlock", "--keep-going",
                                "--shrink-budget", "0", "--jsonl", path});
  CHECK(result.status == 1);
  check_whole_lines(read(path));
  CHECK(read(path).find("\"summary\":true") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(weft::sim::JsonLinesFile::partial_path(path)));
}

TEST_CASE(
    "A sweep killed in the middle leaves no truncated record, and merge reads what it left (and says when it still "
    "runs)",
    "[cli][hardening]") {
  const auto path = fresh_path("killed.jsonl");
  const auto junit = fresh_path("killed.xml");
  WeftProcess sweep({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..100000000", "--expect", "ok",
                     "--keep-going", "--shrink-budget", "0", "--jsonl", path, "--junit", junit});
  const auto partial = weft::sim::JsonLinesFile::partial_path(path);
  REQUIRE(sweep.wait_until([&] { return read(partial).size() >= 20'000; }));
  // While it runs (it holds the lock on F.partial), merge says so: it said "the sweep was killed".
  const auto running = run_weft({"merge", partial});
  CHECK(running.status == 1);
  INFO(running.err);
  CHECK(
      running.err.find("is unfinished: no summary line yet: the sweep writing it is still running (it holds the file's "
                       "lock; merge again when it has ended): its ") != std::string::npos);
  sweep.signal(SIGKILL);
  CHECK(sweep.wait().status == 128 + SIGKILL);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(junit));
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(junit).parent_path()))
    CHECK(entry.path().filename().string().rfind("weft_whole_killed.xml", 0) == std::string::npos);  // no scratch file
  const std::string found = read(partial);
  check_whole_lines(found);
  const auto failures =
      static_cast<std::uint64_t>(std::count(found.begin(), found.end(), '\n')) - 1;  // less the header

  const auto merged = run_weft({"merge", partial});
  CHECK(merged.status == 1);
  CHECK(merged.err.find("is unfinished: no summary line (the sweep was killed, or its disk filled): its " +
                        std::to_string(failures) + " failure lines are counted") != std::string::npos);
  const auto summary = nlohmann::json::parse(merged.out.substr(merged.out.rfind('\n', merged.out.size() - 2) + 1));
  CHECK(summary["complete"] == false);
  CHECK(summary["failures"] == failures);
  CHECK(summary["executions"] == failures);  // every seed fails: the seeds up to the last failure
  CHECK(summary["unfinished_shards"] == nlohmann::json::array({"0/1"}));
}

TEST_CASE("A full disk leaves whole lines in F.partial, and merge reads them", "[cli][hardening]") {
  // A file size limit of 16 KiB stands in for a full disk: the write that crosses it is cut short
  // (then fails, EFBIG), as one that fills a disk is (ENOSPC).
  const auto path = fresh_path("full.jsonl");
  WeftProcess sweep({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..100000", "--expect", "ok",
                     "--keep-going", "--shrink-budget", "0", "--jsonl", path},
                    {}, {"bash", "-c", "trap '' XFSZ; ulimit -f 16; exec \"$@\"", "bash"});
  const auto ended = sweep.wait();
  CHECK(ended.status == 2);
  const auto partial = weft::sim::JsonLinesFile::partial_path(path);
  CHECK(sweep.err().find(partial + ": cannot write the file: File too large") != std::string::npos);
  const std::string found = read(partial);
  CHECK(found.size() > 8 * 1024);
  CHECK(found.size() <= 16 * 1024);
  check_whole_lines(found);
  CHECK_FALSE(std::filesystem::exists(path));

  const auto merged = run_weft({"merge", partial});
  CHECK(merged.status == 1);
  CHECK(merged.err.find("no summary line") != std::string::npos);
}

TEST_CASE("A second sweep given the same --jsonl refuses to start, and the first goes on", "[cli][hardening]") {
  const auto path = fresh_path("locked.jsonl");
  const auto partial = weft::sim::JsonLinesFile::partial_path(path);
  WeftProcess first({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..100000000", "--expect", "ok",
                     "--keep-going", "--shrink-budget", "0", "--jsonl", path});
  REQUIRE(first.wait_until([&] { return read(partial).size() > 1000; }));
  for (const bool in_process : {true, false}) {
    CAPTURE(in_process);
    const std::vector<std::string> args{"sweep", "ring_all_gather", "--seeds", "0..9", "--jsonl", path};
    std::string err;
    if (in_process) {
      const auto second = run_weft(args);
      CHECK(second.status == 2);
      err = second.err;
    } else {
      WeftProcess second(args);
      CHECK(second.wait().status == 2);
      err = second.err();
    }
    CHECK(err.find(partial + ": another weft sweep is writing this file") != std::string::npos);
  }
  first.signal(SIGINT);
  CHECK(first.wait().status == 1);
  const auto merged = run_weft({"merge", path});  // the first sweep's lines, whole, theirs only
  CHECK(merged.status == 1);
  CHECK(merged.out.find("ring_all_gather") == std::string::npos);
  CHECK(nlohmann::json::parse(read(path).substr(0, read(path).find('\n')))["scenario"] == "right_permute");
}
