#pragma once
// Runs the stock weft executable on kernel libraries, as a user does, and reads what it printed.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/request/request.hpp"

namespace weft::testing {

namespace fs = std::filesystem;

struct Run {
  int status;  // the exit status, or -1 when a signal ended it
  std::string out;
  std::string err;
};

inline std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder of this test process's own (ctest runs test cases side by side), removed after.
struct Scratch {
  fs::path folder;
  explicit Scratch(const std::string& name)
      : folder(fs::temp_directory_path() / ("weft_kernel_library_test_" + std::to_string(getpid()) + "_" + name)) {
    fs::create_directories(folder);
  }
  ~Scratch() { fs::remove_all(folder); }
};

// Runs the weft executable with `args` (from this test's working folder), after the shell
// command `before` if any (`ulimit -v 400000`, say).
inline Run run_weft(const std::vector<std::string>& args, const std::string& before = "") {
  const Scratch scratch("output");
  const fs::path& folder = scratch.folder;
  std::string command = (before.empty() ? "" : before + " && exec ") + weft::sim::shell_quote(WEFT_BINARY);
  for (const auto& arg : args) command += " " + weft::sim::shell_quote(arg);
  command += " > " + (folder / "out").string() + " 2> " + (folder / "err").string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read(folder / "out"), read(folder / "err")};
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace weft::testing
