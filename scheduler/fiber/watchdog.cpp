#include "scheduler/fiber/watchdog.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "scheduler/fiber/fiber_rescue.hpp"

namespace weft::scheduler {
namespace {

using Clock = std::chrono::steady_clock;  // measures a stuck run only; never picks an actor

// Interrupts asked of one stuck fiber run before the watchdog may end the process.
constexpr int kRequestsBeforeGivingUp = 4;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

Watchdog::Watchdog(FiberActivity& activity, double budget_seconds)
    : activity_(activity), target_(pthread_self()), budget_(budget_seconds), thread_([this] { watch(); }) {
  rescue::install();
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::watch() {
  const auto tick = std::chrono::duration<double>(std::clamp(budget_ / 4, 0.005, 0.05));
  const double grace = std::max(1.0, budget_);
  std::uint64_t seen = activity_.switches();
  Clock::time_point since = Clock::now();
  // The first interrupt asked for this fiber run, and how many were sent: the grace period counts
  // from the first request, never from the run's start, so a helper thread starved by a loaded
  // host (or Valgrind's one-thread-at-a-time) still asks before it ends the process.
  Clock::time_point asked_at{};
  int asked = 0;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, tick, [this] { return stop_; })) {
    const std::uint64_t now_switches = activity_.switches();
    const Clock::time_point now = Clock::now();
    if (now_switches != seen || now_switches % 2 == 0) {  // a new run, or no fiber running
      seen = now_switches;
      since = now;
      asked = 0;
      continue;
    }
    if (seconds_between(since, now) < budget_) continue;
    if (asked == 0) asked_at = now;
    if (asked >= kRequestsBeforeGivingUp && seconds_between(asked_at, now) > grace) {
      std::fprintf(stderr,
                   "weft: %s ran for %.1f s without a visible operation and could not be interrupted safely "
                   "(it is inside weft or a library call); ending the process (watchdog, exit 3)\n",
                   activity_.running(), seconds_between(since, now));
      std::fflush(stderr);
      _exit(3);
    }
    activity_.request_interrupt(now_switches);
    pthread_kill(target_, rescue::interrupt_signal());
    ++asked;
  }
}

}  // namespace weft::scheduler
