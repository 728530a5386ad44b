#include "sim/cli/interrupt.hpp"

#include <time.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "sim/cli/stdout_watch.hpp"

namespace weft::sim {
namespace {

std::atomic<bool> stop_requested{false};

// The first signal and when it came: (milliseconds of the monotonic clock << 8) | signal; 0 before.
std::atomic<std::uint64_t> first_signal{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

constexpr std::uint64_t same_request_ms = 1000;

std::uint64_t monotonic_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe (POSIX)
  return static_cast<std::uint64_t>(now.tv_sec) * 1000 + static_cast<std::uint64_t>(now.tv_nsec) / 1'000'000;
}

extern "C" void on_stop_signal(int signal) {
  stop_requested.store(true);
  if (signal == SIGPIPE) return;
  const std::uint64_t now = monotonic_ms();
  std::uint64_t first = 0;
  if (first_signal.compare_exchange_strong(first, (now << 8) | static_cast<std::uint64_t>(signal))) return;
  if (static_cast<int>(first & 0xff) == signal && now - (first >> 8) <= same_request_ms) return;
  std::_Exit(128 + signal);
}

void request_stop() { stop_requested.store(true); }

}  // namespace

const std::atomic<bool>& install_interrupt_handlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(signal, &action, nullptr);
    watch_stdout_reader(request_stop);
  });
  return stop_requested;
}

bool stop_was_requested() { return stop_requested.load(); }

}  // namespace weft::sim
