#include "sim/plugin/exit_guard.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "scheduler/fiber/fiber.hpp"

namespace weft::sim {
namespace {

std::atomic<bool> armed{false};
std::string scenario;              // what the command runs (main thread, before any execution)
std::array<char, 4096> library{};  // the library whose code runs outside an execution
std::atomic<int> in_library{0};    // LibraryCode objects alive (one, and a second while the first unwinds)
constexpr std::array<int, 5> crash_signals{SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
std::array<struct sigaction, crash_signals.size()> displaced{};

void write_text(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t written = ::write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}

[[noreturn]] void end_for(const std::string& call) {
  if (in_library.load() > 0) {
    write_text(("weft: " + std::string(library.data()) + ": the kernel library called " + call +
                " while weft loaded or closed it; a kernel library must not end the process (exit 2)\n")
                   .c_str());
    _exit(2);
  }
  const scheduler::Fiber* current = scheduler::Fiber::current();
  const scheduler::Fiber* fiber = current != nullptr && !current->host_code() ? current : nullptr;  // a core's
  std::string who =
      fiber != nullptr ? std::string(fiber->label()) + "'s kernel" : std::string("code that is not weft's");
  if (!scenario.empty())
    who += std::string(fiber != nullptr ? " in " : " (its setup, kernels or check) in ") + scenario;
  write_text(("weft: " + who + " called " + call +
              " while weft ran it: the command did not finish, so no verdict holds (exit 3)\n")
                 .c_str());
  _exit(3);
}

void on_exit_call(int status, void*) {
  if (armed.load()) end_for("exit(" + std::to_string(status) + ")");
}

void on_quick_exit_call() {
  if (armed.load()) end_for("quick_exit");
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    default:
      return "SIGABRT (an abort, or an exception thrown out of an initialiser)";
  }
}

extern "C" void on_library_crash(int signal) {  // async-signal-safe: write and _exit only
  write_text("weft: ");
  write_text(library.data());
  write_text(": the kernel library crashed with ");
  write_text(signal_name(signal));
  write_text(" while weft loaded or closed it (exit 2)\n");
  _exit(2);
}

}  // namespace

ExitGuard::ExitGuard() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    on_exit(on_exit_call, nullptr);
    std::at_quick_exit(on_quick_exit_call);
  });
  armed.store(true);
}

ExitGuard::~ExitGuard() { armed.store(false); }

void note_scenario(const std::string& description) { scenario = description; }

LibraryCode::LibraryCode(const std::string& path) {
  const std::size_t length = std::min(path.size(), library.size() - 1);
  std::memcpy(library.data(), path.data(), length);
  library[length] = '\0';
  if (in_library.fetch_add(1) > 0) return;  // nested (a close while a load unwinds): the handlers are in place
  struct sigaction action {};
  action.sa_handler = on_library_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK;
  for (std::size_t i = 0; i < crash_signals.size(); ++i) sigaction(crash_signals[i], &action, &displaced[i]);
}

LibraryCode::~LibraryCode() {
  if (in_library.fetch_sub(1) > 1) return;
  for (std::size_t i = 0; i < crash_signals.size(); ++i) sigaction(crash_signals[i], &displaced[i], nullptr);
}

}  // namespace weft::sim
