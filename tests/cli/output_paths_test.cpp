// Output paths as the user names them: a device or a FIFO is written in place (never replaced
// by a regular file, even as root), a symbolic link is written through (the link stays), and
// every output is checked before the first execution: writable, not shared by two outputs, not
// an input of the command.

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using weft::testing::file_text;
using weft::testing::run_weft;

namespace {

namespace fs = std::filesystem;

// A fresh folder of this test's own.
fs::path fresh_folder(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / ("weft_output_paths_" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

mode_t type_of(const fs::path& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode & S_IFMT;
}

}  // namespace

TEST_CASE("Outputs to a character device write to the device and leave it one", "[cli][hardening]") {
  const fs::path folder = fresh_folder("device");
  // A null device of our own (as root), so that a regression cannot replace the system's.
  fs::path device = folder / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    if (::geteuid() == 0) {
      WARN("cannot make a device node here (root without CAP_MKNOD): not tried");
      return;
    }
    device = "/dev/null";  // not root: the system's cannot be replaced by us anyway
  }
  const std::string path = device.string();
  CHECK(run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "7", "--trace", path, "--html", path,
                  "--trace-text", path})
            .status == 0);
  CHECK(run_weft({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--expect", "ok", "--keep-going",
                  "--shrink-budget", "0", "--jsonl", path, "--junit", path})
            .status == 1);
  CHECK(type_of(device) == S_IFCHR);
  CHECK_FALSE(fs::exists(path + ".partial"));
  for (const auto& entry : fs::directory_iterator(folder)) CHECK(entry.path() == device);  // no temporary left
}

TEST_CASE("Outputs to a FIFO are written into it, whole, and it stays a FIFO", "[cli][hardening]") {
  const fs::path folder = fresh_folder("fifo");
  const fs::path fifo = folder / "out";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto drain = [&] { return std::async(std::launch::async, [&] { return file_text(fifo); }); };
  // Should weft not open the FIFO (a regression), the reader still ends: a writer comes and goes.
  const auto release = [&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  };
  auto text = drain();
  CHECK(run_weft({"run", "scenarios/barrier_deadlock.toml", "--seed", "7", "--trace-text", fifo.string()}).status == 0);
  release();
  const std::string trace = text.get();
  CHECK(trace.find("verdict") != std::string::npos);
  CHECK(trace.find("deadlock") != std::string::npos);
  auto lines = drain();
  CHECK(run_weft({"sweep", "scenarios/barrier_deadlock.toml", "--seeds", "0..3", "--expect", "ok", "--keep-going",
                  "--shrink-budget", "0", "--jsonl", fifo.string()})
            .status == 1);
  release();
  const std::string jsonl = lines.get();
  CHECK(jsonl.find("\"seed\":3") != std::string::npos);
  CHECK(jsonl.find("\"summary\":true") != std::string::npos);
  CHECK(type_of(fifo) == S_IFIFO);
  CHECK_FALSE(fs::exists(fifo.string() + ".partial"));
}

TEST_CASE("Outputs through a symbolic link write what it names, and the link stays", "[cli][hardening]") {
  const fs::path folder = fresh_folder("links");
  fs::create_directories(folder / "real");
  std::ofstream(folder / "real" / "old.xml") << "old";
  fs::create_symlink("real/old.xml", folder / "existing.xml");                 // relative, to a file
  fs::create_symlink(folder / "real" / "new.json", folder / "dangling.json");  // absolute, to nothing yet
  fs::create_symlink("existing.xml", folder / "chain.xml");                    // a link to a link
  CHECK(run_weft({"sweep", "right_permute", "--seeds", "0..3", "--junit", (folder / "chain.xml").string()}).status ==
        0);
  CHECK(file_text(folder / "real" / "old.xml").find("<testsuites>") != std::string::npos);
  CHECK(run_weft({"run", "right_permute", "--trace", (folder / "dangling.json").string()}).status == 0);
  CHECK(file_text(folder / "real" / "new.json").find("traceEvents") != std::string::npos);
  for (const char* link : {"existing.xml", "dangling.json", "chain.xml"}) {
    CAPTURE(link);
    CHECK(type_of(folder / link) == S_IFLNK);
  }
  fs::create_symlink("loop", folder / "loop");
  const auto loop = run_weft({"run", "right_permute", "--html", (folder / "loop").string()});
  CHECK(loop.status == 2);
  CHECK(loop.err.find("--html: cannot write '" + (folder / "loop").string() + "': too many levels of symbolic links") !=
        std::string::npos);
}

TEST_CASE("Two outputs on one file, or an output on an input, are refused before running", "[cli][hardening]") {
  const fs::path folder = fresh_folder("clashes");
  const std::string out = (folder / "out").string();
  const fs::path scenario = folder / "s.toml";
  const std::string scenario_text = "kernel = \"right_permute\"\n[topology]\ndevices = 2\n";
  std::ofstream(scenario) << scenario_text;
  std::ofstream(folder / "c.toml") << "[dma]\nexecution = \"eager\"\n";
  fs::create_hard_link(scenario, folder / "hard.toml");
  fs::create_symlink("s.toml", folder / "soft.toml");
  const std::string s = scenario.string(), c = (folder / "c.toml").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"sweep", "right_permute", "--seeds", "0..3", "--jsonl", out, "--junit", out},
       "--junit: cannot write '" + out + "': --jsonl writes it too"},
      {{"sweep", "right_permute", "--seeds", "0..3", "--jsonl", out, "--junit", out + ".partial"},
       "--jsonl writes it too (" + out + ".partial)"},
      {{"sweep", "right_permute", "--seeds", "0..3", "--jsonl", out, "--junit",
        (folder / "." / ".." / folder.filename() / "out").string()},
       "--jsonl writes it too"},
      {{"run", "right_permute", "--trace", out, "--html", out},
       "--html: cannot write '" + out + "': --trace writes it too"},
      {{"run", "right_permute", "--html", out, "--trace-text", out}, "--trace-text: cannot write"},
      {{"sweep", s, "--seeds", "0..3", "--jsonl", s},
       "--jsonl: cannot write '" + s + "': it is the scenario file (" + s + "), an input"},
      {{"sweep", s, "--seeds", "0..3", "--junit", (folder / "hard.toml").string()}, "it is the scenario file"},
      {{"run", s, "--trace", (folder / "soft.toml").string()}, "it is the scenario file"},
      {{"run", s, "--config", c, "--trace-text", c},
       "--trace-text: cannot write '" + c + "': it is the config file (" + c + "), an input"},
      {{"explore", s, "--config", c, "--html", c}, "it is the config file"},
  };
  for (const auto& [args, expected] : cases) {
    CAPTURE(args);
    const auto result = run_weft(args);
    CHECK(result.status == 2);
    CHECK(result.err.find(expected) != std::string::npos);
    CHECK(result.out.empty());  // nothing ran
  }
  CHECK(file_text(scenario) == scenario_text);
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(out + ".partial"));
}

TEST_CASE("Every output path is checked before the first execution", "[cli][hardening]") {
  const fs::path folder = fresh_folder("checked_first");
  const std::string jsonl = (folder / "f.jsonl").string();
  const auto started = std::chrono::steady_clock::now();
  // 10^8 seeds: were the JUnit path checked at the end, this would not end in any test's time.
  const auto result = run_weft(
      {"sweep", "right_permute", "--seeds", "0..100000000", "--jsonl", jsonl, "--junit", "/nonexistent/j.xml"});
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK(result.status == 2);
  CHECK(result.err.find("--junit: cannot write '/nonexistent/j.xml': No such file or directory") != std::string::npos);
  CHECK(result.out.empty());
  CHECK_FALSE(fs::exists(jsonl + ".partial"));
  const std::vector<std::vector<std::string>> unwritable{
      {"run", "right_permute", "--trace", (folder / "no" / "t.json").string()},
      {"run", "right_permute", "--html", folder.string()},
      {"replay", "right_permute", "--seed", "1", "--trace-text", "/nonexistent/t.txt"},
      {"explore", "scenarios/readers6.toml", "--trace", "/nonexistent/t.json"},
      {"sweep", "right_permute", "--seeds", "0..3", "--jsonl", "/nonexistent/f.jsonl"},
  };
  for (const auto& args : unwritable) {
    CAPTURE(args);
    const auto refused = run_weft(args);
    CHECK(refused.status == 2);
    CHECK(refused.err.find("cannot write") != std::string::npos);
    CHECK(refused.out.empty());
  }
}

TEST_CASE("A sweep or an exploration refused at its setup leaves no output file", "[cli][hardening]") {
  // The scenario's setup throws (a buffer of negative extent): exit status 2 before any
  // execution. A header alone, as F.partial, would read as the shard of a killed sweep.
  const fs::path folder = fresh_folder("refused");
  const std::string lines = (folder / "found.jsonl").string();
  for (const std::vector<std::string>& verb :
       {std::vector<std::string>{"sweep", "--seeds", "0..3"},
        std::vector<std::string>{"sweep", "--seeds", "0..3", "--jobs", "2"}, std::vector<std::string>{"explore"}}) {
    std::vector<std::string> args = verb;
    args.insert(args.end(), {"ring_all_gather", "--set", "params.cols=-4", "--jsonl", lines});
    CAPTURE(args);
    const auto refused = run_weft(args);
    CHECK(refused.status == 2);
    CHECK(refused.err.find("extent -4 of dimension 1 is negative") != std::string::npos);
    CHECK(fs::is_empty(folder));
  }
}
