// Output integrity: files appear whole or not at all, and a sweep killed in the middle leaves
// no truncated record behind (only F.partial, whose lines are whole).

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "sim/cli/whole_output.hpp"

extern char** environ;

using weft::testing::run_weft;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string fresh_path(const std::string& name) {
  const auto path = (std::filesystem::temp_directory_path() / ("weft_whole_" + name)).string();
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
  CHECK_FALSE(std::filesystem::exists(std::filesystem::temp_directory_path() / "weft_whole_abandoned.jsonl"));
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

TEST_CASE("A sweep killed in the middle leaves no truncated record", "[cli][hardening]") {
  const auto path = fresh_path("killed.jsonl");
  const auto junit = fresh_path("killed.xml");
  std::vector<std::string> args{WEFT_BINARY, "sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..100000000",
                                "--expect", "ok", "--keep-going", "--shrink-budget", "0", "--jsonl", path,
                                "--junit", junit};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(WEFT_SOURCE_DIR);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, WEFT_BINARY, &actions, nullptr, argv.data(), environ);
  std::filesystem::current_path(cwd);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(spawned == 0);
  const auto partial = weft::sim::JsonLinesFile::partial_path(path);
  for (int wait = 0; wait < 200 && read(partial).size() < 20'000; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  kill(child, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(junit));
  const std::string found = read(partial);
  const auto last_newline = found.rfind('\n');
  REQUIRE(last_newline != std::string::npos);
  check_whole_lines(found.substr(0, last_newline + 1));
  CHECK(found.size() == last_newline + 1);  // each line is one write(2): no half line at the end
}
