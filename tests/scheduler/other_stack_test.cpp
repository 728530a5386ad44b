// call_on_stack: a plain call made on another stack returns the function's result, runs the
// function's frames on that stack (where the build changes stacks), keeps the running fiber, and
// lets exceptions be thrown and caught inside the function.

#include <catch2/catch.hpp>

#include <cstddef>
#include <stdexcept>

#include "scheduler/fiber/context_fiber.hpp"
#include "scheduler/fiber/other_stack.hpp"
#include "scheduler/fiber/stack_pool.hpp"

namespace {

using weft::scheduler::call_on_stack;
using weft::scheduler::changes_stacks;
using weft::scheduler::ContextFiber;
using weft::scheduler::Fiber;
using weft::scheduler::Stack;
using weft::scheduler::StackPool;

struct Seen {
  const void* frame = nullptr;
  const Fiber* fiber = nullptr;
  int caught = 0;
};

[[gnu::noinline]] std::size_t note_frame(void* seen, std::size_t argument) noexcept {
  auto& into = *static_cast<Seen*>(seen);
  into.frame = __builtin_frame_address(0);
  into.fiber = Fiber::current();
  try {
    if (argument > 0) throw std::runtime_error("inside");
  } catch (const std::runtime_error&) {
    ++into.caught;
  }
  return argument * 3 + 1;
}

}  // namespace

TEST_CASE("call_on_stack runs the function on the given stack and returns its result", "[scheduler]") {
  StackPool pool(64 * 1024);
  const Stack stack = pool.take();
  Seen seen;
  CHECK(call_on_stack(&seen, 14, &note_frame, stack.top()) == 43);
  CHECK(seen.caught == 1);
  CHECK(seen.fiber == nullptr);
  CHECK(stack.contains(seen.frame) == changes_stacks());
  CHECK(call_on_stack(&seen, 0, &note_frame, stack.top()) == 1);  // again, nothing thrown
  CHECK(seen.caught == 1);
  pool.give(stack);
}

TEST_CASE("call_on_stack from a fiber keeps the fiber running, off its stack", "[scheduler]") {
  StackPool pool(64 * 1024);
  const Stack other = pool.take();
  Seen seen;
  std::size_t result = 0;
  ContextFiber fiber(pool, [&] { result = call_on_stack(&seen, 2, &note_frame, other.top()); });
  fiber.resume();
  CHECK(fiber.finished());
  CHECK(result == 7);
  CHECK(seen.fiber == &fiber);
  CHECK(seen.caught == 1);
  CHECK(other.contains(seen.frame) == changes_stacks());
  if (changes_stacks()) CHECK_FALSE(fiber.stack().contains(seen.frame));
  pool.give(other);
}
