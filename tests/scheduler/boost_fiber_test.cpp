// What only the boost_fiber backend has to get right (the rest runs on both backends in
// fiber_test.cpp and fiber_rescue_test.cpp): a thread's Boost.Fiber scheduler shuts down when the
// thread ends, whatever became of its fibers; threads keep their own schedulers; and a fiber that
// leaves Boost.Fiber with nothing to run ends the process with a message instead of hanging.

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/fiber/context.hpp>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"
#include "tests/scheduler/stack_overflow.hpp"

namespace {

using weft::scheduler::Fiber;
using weft::scheduler::FiberBackend;
using weft::scheduler::ForcedUnwind;
using weft::scheduler::make_fiber;
using weft::scheduler::StackPool;
using weft::scheduler::testing::descend;

constexpr std::size_t stack_bytes = 64 * 1024;

// Runs `child` in a forked process and returns its exit status, or -1 when it had not ended after
// `seconds` (it is killed then) or did not exit normally.
template <typename Child>
int exit_status_of(Child child, double seconds) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(STDERR_FILENO);  // keep the test's output clean
    child();
    _exit(0);
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// One fiber of each fate on the calling thread: returned, unwound, overflowed, abandoned, and
// one that swallows its unwinding.
void every_fate() {
  StackPool pool(stack_bytes);
  Fiber* self = nullptr;
  make_fiber(FiberBackend::boost_fiber, pool, [] {})->resume();
  {
    auto unwound = make_fiber(FiberBackend::boost_fiber, pool, [&] { self->suspend(); });
    self = unwound.get();
    unwound->resume();
  }
  auto overflowed = make_fiber(FiberBackend::boost_fiber, pool, [] {
    const Fiber::UserCode user;
    descend(0, std::int64_t{1} << 62);
  });
  overflowed->resume();
  auto abandoned = make_fiber(FiberBackend::boost_fiber, pool, [&] { self->suspend(); });
  self = abandoned.get();
  abandoned->resume();
  abandoned->abandon();
  {
    auto swallower = make_fiber(FiberBackend::boost_fiber, pool, [&] {
      for (;;) {
        try {
          self->suspend();
        } catch (const ForcedUnwind&) {
        }
      }
    });
    self = swallower.get();
    swallower->resume();
  }
  if (overflowed->end() != Fiber::End::stack_overflow || pool.retired() != 3) _exit(4);
}

}  // namespace

TEST_CASE("A thread that ran Boost.Fiber fibers of every fate ends without waiting for them",
          "[scheduler][hardening]") {
  CHECK(exit_status_of(
            [] {
              std::thread thread(every_fate);
              thread.join();
              every_fate();  // and the main thread, whose scheduler ends at exit
            },
            20) == 0);
}

TEST_CASE("Threads running Boost.Fiber fibers at once each keep their own scheduler", "[scheduler]") {
  const auto interleave = [](std::string& trace) {
    StackPool pool(stack_bytes);
    std::vector<std::unique_ptr<Fiber>> fibers(3);
    for (std::size_t i = 0; i < fibers.size(); ++i) {
      fibers[i] = make_fiber(FiberBackend::boost_fiber, pool, [&trace, &fibers, i] {
        for (int step = 0; step < 200; ++step) {
          trace += static_cast<char>('a' + i);
          fibers[i]->suspend();
        }
      });
    }
    for (int round = 0; round <= 200; ++round)
      for (std::size_t i : {2u, 0u, 1u}) fibers[i]->resume();
  };
  std::string first, second;
  std::thread a([&] { interleave(first); });
  std::thread b([&] { interleave(second); });
  a.join();
  b.join();
  std::string expected;
  for (int i = 0; i < 200; ++i) expected += "cab";
  CHECK(first == expected);
  CHECK(second == expected);
}

TEST_CASE("A fiber that leaves Boost.Fiber with nothing to run ends the process with exit code 3",
          "[scheduler][hardening]") {
  CHECK(exit_status_of(
            [] {
              StackPool pool(stack_bytes);
              // Suspends behind the backend's back: no fiber is ready, which Boost.Fiber would wait
              // out for ever.
              auto fiber =
                  make_fiber(FiberBackend::boost_fiber, pool, [] { boost::fibers::context::active()->suspend(); });
              fiber->resume();
            },
            20) == 3);
}
