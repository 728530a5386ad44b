// ContextFiber::hand_to: a running fiber switches straight to another; whoever resumed the
// first is resumed when the chain suspends, returns or is rescued; a fiber suspended inside
// hand_to resumes where it stopped, unwinds when destroyed, and is told apart from one resumed by
// its caller.

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/fiber/context_fiber.hpp"
#include "tests/scheduler/stack_overflow.hpp"

namespace {

using weft::scheduler::ContextFiber;
using weft::scheduler::Fiber;
using weft::scheduler::ForcedUnwind;
using weft::scheduler::StackPool;
using weft::scheduler::testing::descend;

constexpr std::size_t stack_bytes = 64 * 1024;

}  // namespace

TEST_CASE("hand_to runs a chain of fibers and returns to the caller when the chain suspends", "[scheduler]") {
  StackPool pool(stack_bytes);
  std::string trace;
  std::vector<std::unique_ptr<ContextFiber>> fibers(3);
  for (int i = 0; i < 3; ++i) {
    fibers[i] = std::make_unique<ContextFiber>(pool, [&, i] {
      const std::string name(1, static_cast<char>('a' + i));
      ContextFiber& self = *fibers[i];
      self.suspend();  // started by the caller, like a launch
      trace += name + "1 ";
      if (i < 2) {
        self.hand_to(*fibers[i + 1]);  // a to b, b to c
      } else {
        self.suspend();  // c: back to the caller, which had resumed a
      }
      trace += name + "2 ";
      if (i > 0) self.hand_to(*fibers[i - 1]);  // c to b, b to a
    });
  }
  for (auto& fiber : fibers) fiber->resume();
  CHECK(trace.empty());

  fibers[0]->resume();  // a, which hands on to b, which hands on to c, which suspends
  CHECK(trace == "a1 b1 c1 ");
  CHECK(Fiber::current() == nullptr);
  for (auto& fiber : fibers) CHECK_FALSE(fiber->finished());

  fibers[2]->resume();  // c goes on and hands back to b, b to a; a returns
  CHECK(trace == "a1 b1 c1 c2 b2 a2 ");
  CHECK(fibers[0]->finished());
  CHECK_FALSE(fibers[1]->finished());  // each stands inside its hand_to
  CHECK_FALSE(fibers[2]->finished());

  // b and c are suspended inside hand_to: resumed by the caller, each goes on from there.
  fibers[1]->resume();
  fibers[2]->resume();
  for (auto& fiber : fibers) CHECK(fiber->end() == Fiber::End::returned);
  CHECK(pool.allocated() == 3);
}

TEST_CASE("A fiber suspended inside hand_to unwinds when destroyed", "[scheduler]") {
  StackPool pool(stack_bytes);
  std::vector<std::string> log;
  std::unique_ptr<ContextFiber> a, b;
  a = std::make_unique<ContextFiber>(pool, [&] {
    struct Guard {
      std::vector<std::string>* log;
      ~Guard() { log->push_back("~a"); }
    } guard{&log};
    try {
      a->hand_to(*b);
      log.push_back("not reached");
    } catch (const ForcedUnwind&) {
      log.push_back("unwound");
      throw;
    }
  });
  b = std::make_unique<ContextFiber>(pool, [&] {
    b->suspend();  // started by the caller
    log.push_back("b");
  });
  b->resume();
  a->resume();  // a hands on to b, which returns: the caller goes on
  CHECK(log == std::vector<std::string>{"b"});
  CHECK(b->finished());
  CHECK_FALSE(a->finished());
  a.reset();
  CHECK(log == std::vector<std::string>{"b", "unwound", "~a"});
}

TEST_CASE("A fiber handed on to that overflows its stack goes back to the caller, abandoned",
          "[scheduler][hardening]") {
  StackPool pool(stack_bytes);
  bool after = false;
  std::unique_ptr<ContextFiber> a, b;
  a = std::make_unique<ContextFiber>(pool, [&] { a->hand_to(*b); });
  b = std::make_unique<ContextFiber>(pool, [&] {
    b->suspend();  // started by the caller
    const Fiber::UserCode user;
    descend(0, std::int64_t{1} << 62);
    after = true;
  });
  b->resume();
  a->resume();  // a hands on to b, whose overflow is rescued back to the caller
  CHECK(b->end() == Fiber::End::stack_overflow);
  CHECK_FALSE(after);
  CHECK(pool.retired() == 1);
  CHECK(Fiber::current() == nullptr);
  CHECK_FALSE(a->finished());  // still inside its hand_to: resumed, it goes on and returns
  a->resume();
  CHECK(a->end() == Fiber::End::returned);
}
