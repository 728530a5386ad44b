#pragma once
// Runs the built weft executable as a child process (from the source tree, as run_weft does
// in-process), for what only a real process shows: signals, exit statuses, resource limits and
// peak memory. Its stdout and stderr go to files the test reads while it runs, or where Streams
// names (/dev/full, a terminal). It runs in a process group of its own (so that a test can signal
// the group, as coreutils' `timeout` does, without signalling itself).

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "file_text.hpp"

extern char** environ;

namespace weft::testing {

// A path in the temporary folder, with nothing there yet (nor a .partial of it).
inline std::string fresh_path(const std::string& name) {
  const auto path = (std::filesystem::temp_directory_path() / ("weft_process_" + name)).string();
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".partial");
  return path;
}

struct Ended {
  int status = -1;     // the exit status, or 128 + the signal that ended it
  long peak_kib = 0;   // the child's peak resident memory
  double seconds = 0;  // from the last signal sent (or the start) to the end
};

// Where a process's stdout and stderr go, when not to files of its own (read by out() and err()).
// No default: `{}` means the environment or the prefix of WeftProcess, never Streams.
struct Streams {
  explicit Streams(std::string out_path, std::string err_path = {})
      : out(std::move(out_path)), err(std::move(err_path)) {}
  std::string out;
  std::string err;  // empty: a file of its own
};

class WeftProcess {
 public:
  // `environment`: "NAME=VALUE" settings added to this process's environment; `prefix`: words
  // run before weft (a shell that sets a limit, say); `folder`: where it runs.
  explicit WeftProcess(std::vector<std::string> args, std::vector<std::string> environment = {},
                       std::vector<std::string> prefix = {}, const std::string& folder = WEFT_SOURCE_DIR)
      : WeftProcess(std::move(args), Streams(own_file("out")), std::move(environment), std::move(prefix), folder) {}

  // The same, with stdout (and stderr, when named) where `streams` says.
  WeftProcess(std::vector<std::string> args, const Streams& streams, std::vector<std::string> environment = {},
              std::vector<std::string> prefix = {}, const std::string& folder = WEFT_SOURCE_DIR)
      : out_(streams.out), err_(streams.err.empty() ? own_file("err") : streams.err) {
    std::vector<std::string> words = std::move(prefix);
    words.emplace_back(WEFT_BINARY);
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY,
                                     0644);
    posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
    std::vector<char*> env;  // the settings first: getenv finds the first of a name
    for (auto& variable : environment) env.push_back(variable.data());
    for (char** variable = environ; *variable != nullptr; ++variable) env.push_back(*variable);
    env.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    started_ = std::chrono::steady_clock::now();
    const int spawned = posix_spawnp(&pid_, argv[0], &actions, &attributes, argv.data(), env.data());
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(spawned == 0);
  }
  WeftProcess(const WeftProcess&) = delete;
  WeftProcess& operator=(const WeftProcess&) = delete;
  ~WeftProcess() {
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);  // its group: a shell's children too
      ::waitpid(pid_, nullptr, 0);
    }
  }

  std::string out() const { return file_text(out_); }
  std::string err() const { return file_text(err_); }

  // Waits (up to `seconds`) until `ready` holds; false if it never did.
  bool wait_until(const std::function<bool()>& ready, double seconds = 30) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!ready()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  }

  void signal(int number) {
    started_ = std::chrono::steady_clock::now();
    ::kill(pid_, number);
  }

  // Sends `number` to the process's group (the process and any child of its).
  void signal_group(int number) { ::kill(-pid_, number); }

  pid_t pid() const { return pid_; }

  Ended wait() {
    int status = 0;
    rusage usage{};
    REQUIRE(::wait4(pid_, &status, 0, &usage) == pid_);
    pid_ = -1;
    Ended ended;
    ended.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    ended.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    ended.peak_kib = usage.ru_maxrss;
    return ended;
  }

 private:
  static int counter() {
    static int next = 0;
    return next++;
  }
  // A file of this process's own in the temporary folder.
  static std::string own_file(const std::string& what) {
    return fresh_path(what + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter()));
  }

  std::string out_;
  std::string err_;
  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace weft::testing
