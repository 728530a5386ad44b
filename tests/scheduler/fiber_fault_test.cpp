// Fibers whose own code faults (scheduler/fiber/fiber_rescue.hpp): SIGFPE, SIGSEGV and SIGILL
// raised by the body abandon the fiber with the fault noted, and the pool and the thread go on;
// the same fault inside weft's own code (a RuntimeSection) is not rescued. The faults are
// raised by inline assembly, which no sanitizer instruments, so the suite runs under them too.

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"

#if defined(__x86_64__)

namespace {

using weft::scheduler::Fiber;
using weft::scheduler::FiberBackend;
using weft::scheduler::make_fiber;
using weft::scheduler::StackPool;

constexpr std::size_t stack_bytes = 64 * 1024;

void divide_by_zero() {
  asm volatile("xorl %%ecx, %%ecx\n\tmovl $1, %%eax\n\tcltd\n\tidivl %%ecx" ::: "eax", "ecx", "edx");
}
void read_address_zero() { asm volatile("movq 0, %%rax" ::: "rax", "memory"); }
void illegal_instruction() { asm volatile("ud2"); }

struct Case {
  void (*raise)();
  int signal;
};

}  // namespace

TEST_CASE("A fiber whose own code faults is abandoned with the fault, and the pool goes on", "[scheduler][hardening]") {
  const FiberBackend backend = GENERATE(FiberBackend::context, FiberBackend::boost_fiber);
  INFO((backend == FiberBackend::context ? "backend context" : "backend boost_fiber"));
  StackPool pool(stack_bytes);
  const Case cases[] = {{divide_by_zero, SIGFPE},
                        {read_address_zero, SIGSEGV},
                        {illegal_instruction, SIGILL},
                        {divide_by_zero, SIGFPE}};  // again: the signal was unblocked
  std::size_t round = 0;
  for (const Case& c : cases) {
    CAPTURE(c.signal);
    bool after = false;
    auto fiber = make_fiber(backend, pool, [&] {
      const Fiber::UserCode user;
      c.raise();
      after = true;
    });
    fiber->resume();
    CHECK(fiber->end() == Fiber::End::faulted);
    CHECK(fiber->fault().signal == c.signal);
    CHECK(fiber->fault().pc != 0);
    if (c.signal == SIGFPE) CHECK(fiber->fault().code == FPE_INTDIV);
    if (c.signal == SIGSEGV) CHECK(fiber->fault().address == 0);
    CHECK_FALSE(after);
    CHECK(pool.retired() == ++round);
  }
  bool ran = false;
  auto next = make_fiber(backend, pool, [&] { ran = true; });
  next->resume();
  CHECK(ran);
  CHECK(next->end() == Fiber::End::returned);
}

TEST_CASE("A fault inside weft's own code is not rescued: it is named, and ends the process",
          "[scheduler][hardening]") {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(STDERR_FILENO);     // keep the test's output clean
    signal(SIGFPE, SIG_DFL);  // whatever the test framework put there: the default action follows ours
    StackPool pool(stack_bytes);
    auto fiber = make_fiber(FiberBackend::context, pool, [] { divide_by_zero(); });  // never marked as user code
    fiber->resume();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
#if defined(WEFT_SANITIZE_ADDRESS)
  CHECK((WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)));  // or ASan's report ends it
#else
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGFPE);
#endif
}

#endif
