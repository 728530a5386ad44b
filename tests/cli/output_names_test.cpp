// Output names and standard descriptors that could send output astray: a closed stdout (the
// first file opened would become descriptor 1), `-` for an output that is a file, names of 248 to 255
// bytes (legal, but too long with weft's own suffix), and a JUnit report on /dev/null as a
// user who cannot make files in /dev.

#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::run_weft;
using weft::testing::WeftProcess;

namespace fs = std::filesystem;

TEST_CASE("A sweep with stdout closed writes no report into its JSON lines file", "[cli][hardening]") {
  const auto jsonl = fresh_path("closed_stdout.jsonl");
  WeftProcess weft({"sweep", "scenarios/barrier_deadlock.toml", "--expect", "ok", "--seeds", "0..9", "--keep-going",
                    "--jsonl", jsonl},
                   {}, {"bash", "-c", "exec \"$@\" >&-", "bash"});
  CHECK(weft.wait().status == 2);  // stdout could not be written
  CHECK(weft.err().find("weft: cannot write to stdout") != std::string::npos);
  const std::string lines = file_text(jsonl);
  INFO(lines);
  REQUIRE(!lines.empty());
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) CHECK(line.rfind("{", 0) == 0);
  fs::remove(jsonl);
}

TEST_CASE("'-' is refused for an output that is a file", "[cli][hardening]") {
  const std::vector<std::string> sweep{"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..1", "--expect", "ok"};
  for (const char* option : {"--jsonl", "--junit"}) {
    CAPTURE(option);
    auto args = sweep;
    args.insert(args.end(), {option, "-"});
    const auto result = run_weft(args);
    CHECK(result.status == 2);
    CHECK(result.err.find(std::string("weft: ") + option + ": cannot write '-': '-' is not stdout") !=
          std::string::npos);
  }
  for (const char* option : {"--trace", "--html"}) {
    CAPTURE(option);
    const auto result = run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "1", option, "-"});
    CHECK(result.status == 2);
    CHECK(result.err.find("'-' is not stdout") != std::string::npos);
  }
  CHECK(!fs::exists(fs::path(WEFT_SOURCE_DIR) / "-"));
  CHECK(run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "1", "--trace-text", "-"}).status == 0);
}

TEST_CASE("Output names of 248 to 255 bytes are written", "[cli][hardening]") {
  const fs::path folder = fs::temp_directory_path() / "weft_long_names";
  fs::remove_all(folder);
  fs::create_directories(folder);
  for (const std::size_t length : {248, 251, 255}) {
    CAPTURE(length);
    const std::string jsonl = (folder / std::string(length, 'j')).string();
    const std::string junit = (folder / std::string(length, 'u')).string();
    const std::string trace = (folder / std::string(length, 't')).string();
    const auto swept = run_weft({"sweep", "scenarios/barrier_deadlock.toml", "--expect", "ok", "--seeds", "0..3",
                                 "--keep-going", "--jsonl", jsonl, "--junit", junit});
    INFO(swept.err);
    CHECK(swept.status == 1);
    CHECK(file_text(jsonl).find("\"complete\":true") != std::string::npos);
    CHECK(file_text(junit).find("</testsuites>") != std::string::npos);
    const auto ran = run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "1", "--trace", trace});
    INFO(ran.err);
    CHECK(ran.status == 0);
    CHECK(fs::file_size(trace) > 0);
  }
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) ++files;
  CHECK(files == 9);  // nothing left beside them
  fs::remove_all(folder);
}

TEST_CASE("A JUnit report on /dev/null as a user who cannot write in /dev", "[cli][hardening]") {
  if (::geteuid() != 0 && ::access("/dev", W_OK) == 0) {
    WARN("/dev is writable and this is not root: not tried");
    return;
  }
  // As root, run weft as nobody (who cannot make a file in /dev), as an ordinary user would.
  const std::vector<std::string> as_user =
      ::geteuid() == 0 ? std::vector<std::string>{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"}
                       : std::vector<std::string>{};
  WeftProcess weft({"sweep", "scenarios/barrier_deadlock.toml", "--expect", "ok", "--seeds", "0..3", "--keep-going",
                    "--junit", "/dev/null"},
                   {}, as_user);
  const int status = weft.wait().status;
  INFO(weft.err());
  CHECK(status == 1);
  CHECK(weft.err().empty());
}
