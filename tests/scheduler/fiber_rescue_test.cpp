// Fibers that end without finishing: a stack overflow caught in the guard page, a watchdog's
// interrupt, a body that will not unwind. The process and the pool go on after each.

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"
#include "scheduler/fiber/watchdog.hpp"
#include "tests/scheduler/stack_overflow.hpp"

namespace {

using weft::scheduler::Fiber;
using weft::scheduler::FiberBackend;
using weft::scheduler::ForcedUnwind;
using weft::scheduler::make_fiber;
using weft::scheduler::StackPool;
using weft::scheduler::Watchdog;
using weft::scheduler::testing::descend;
using Clock = std::chrono::steady_clock;

constexpr std::size_t stack_bytes = 64 * 1024;

// Every test runs on both backends (scheduler/fiber/fiber_backend.hpp).
const char* backend_name(FiberBackend backend) {
  return backend == FiberBackend::context ? "backend context" : "backend boost_fiber";
}

void spin_for(double seconds) {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
  }
}

void spin_forever() {
  volatile std::uint64_t spins = 0;
  for (;;) spins = spins + 1;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

TEST_CASE("A fiber that overflows its stack is abandoned and the pool and thread go on", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  for (int round = 1; round <= 3; ++round) {  // again and again: the signal is unblocked each time
    CAPTURE(round);
    bool after = false;
    auto fiber = make_fiber(backend, pool, [&] {
      const Fiber::UserCode user;
      descend(0, std::int64_t{1} << 62);
      after = true;
    });
    fiber->resume();
    CHECK(fiber->finished());
    CHECK(fiber->end() == Fiber::End::stack_overflow);
    CHECK_FALSE(after);
    CHECK(pool.retired() == static_cast<std::size_t>(round));
  }
  bool ran = false;
  auto next = make_fiber(backend, pool, [&] { ran = true; });
  next->resume();
  CHECK(ran);
  CHECK(next->end() == Fiber::End::returned);
}

__attribute__((noinline)) std::size_t left_below_a_big_frame(const Fiber& fiber) {
  volatile char frame[8192];
  frame[0] = 1;
  return fiber.stack_left() + static_cast<std::size_t>(frame[0] - 1);
}

TEST_CASE("A fiber reports how much stack is left below its frame", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  std::size_t shallow = 0, deep = 0;
  Fiber* self = nullptr;
  auto fiber = make_fiber(backend, pool, [&] {
    shallow = self->stack_left();
    deep = left_below_a_big_frame(*self);
  });
  self = fiber.get();
  fiber->resume();
  CHECK(shallow > 60 * 1024);
  CHECK(shallow <= stack_bytes);
  CHECK(deep + 8192 <= shallow);
}

TEST_CASE("An overflow inside weft's own code ends the process with exit code 3", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(STDERR_FILENO);  // keep the test's output clean
    StackPool pool(stack_bytes);
    auto fiber = make_fiber(backend, pool, [] { descend(0, std::int64_t{1} << 62); });  // never marked as user code
    fiber->resume();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
}

TEST_CASE("The watchdog interrupts a fiber that runs too long without suspending", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  Watchdog watchdog(pool.activity(), 0.1);
  for (int round = 1; round <= 2; ++round) {
    CAPTURE(round);
    const auto start = Clock::now();
    auto fiber = make_fiber(backend, pool, [] {
      const Fiber::UserCode user;
      spin_forever();
    });
    fiber->resume();
    CHECK(fiber->end() == Fiber::End::interrupted);
    CHECK(seconds_since(start) >= 0.1);
    CHECK(seconds_since(start) < 5);
  }
  CHECK(pool.retired() == 2);
}

TEST_CASE("The watchdog waits while the fiber runs weft's own code", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  Watchdog watchdog(pool.activity(), 0.05);
  volatile bool left_runtime = false;  // volatile: the store must not sink into the endless loop
  auto fiber = make_fiber(backend, pool, [&] {
    const Fiber::UserCode user;
    {
      const Fiber::RuntimeSection runtime;
      spin_for(0.2);  // longer than the budget, well within the grace period (1 s)
    }
    left_runtime = true;
    spin_forever();
  });
  fiber->resume();
  CHECK(left_runtime);
  CHECK(fiber->end() == Fiber::End::interrupted);
}

TEST_CASE("The watchdog ends the process, after asking, when the fiber stays in weft's own code",
          "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  const auto start = Clock::now();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(STDERR_FILENO);  // keep the test's output clean
    StackPool pool(stack_bytes);
    Watchdog watchdog(pool.activity(), 0.05);
    auto fiber = make_fiber(backend, pool, [] {
      const Fiber::UserCode user;
      const Fiber::RuntimeSection runtime;
      spin_forever();
    });
    fiber->resume();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(seconds_since(start) >= 1.05);  // the budget, then the grace period (1 s) from the first request
}

TEST_CASE("A fiber that suspends often is never interrupted", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  Watchdog watchdog(pool.activity(), 0.5);  // 50 times a run: a loaded machine stays well within it
  Fiber* self = nullptr;
  int steps = 0;
  auto fiber = make_fiber(backend, pool, [&] {
    const Fiber::UserCode user;
    for (int i = 0; i < 20; ++i) {
      spin_for(0.01);
      self->suspend();
    }
  });
  self = fiber.get();
  while (!fiber->finished()) {
    fiber->resume();
    ++steps;
  }
  CHECK(fiber->end() == Fiber::End::returned);
  CHECK(steps == 21);
}

TEST_CASE("A body that swallows the forced unwind is abandoned, not resumed forever", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  int caught = 0;
  {
    Fiber* self = nullptr;
    auto fiber = make_fiber(backend, pool, [&] {
      for (;;) {
        try {
          self->suspend();
        } catch (const ForcedUnwind&) {
          ++caught;  // swallowed
        }
      }
    });
    self = fiber.get();
    fiber->resume();
  }
  CHECK(caught == 1);
  CHECK(pool.retired() == 1);
}

TEST_CASE("Abandoning a suspended fiber retires its stack and never runs it again", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO(backend_name(backend));
  StackPool pool(stack_bytes);
  int runs = 0;
  Fiber* self = nullptr;
  auto fiber = make_fiber(backend, pool, [&] {
    ++runs;
    self->suspend();
    ++runs;
  });
  self = fiber.get();
  fiber->resume();
  fiber->abandon();
  fiber->resume();  // does nothing
  CHECK(runs == 1);
  CHECK(fiber->end() == Fiber::End::abandoned);
  CHECK(pool.retired() == 1);
  CHECK(pool.allocated() == 1);
}
