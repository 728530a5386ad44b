#pragma once
// Fibers on Boost.Context: a fiber runs one body on its own stack and switches only when told
// (`resume` from the scheduler's side, `suspend` from inside). It never decides who runs next.
//
// Stacks come from a StackPool: guarded stacks allocated once and reused by every execution of
// a simulation. Destroying a fiber that has not finished unwinds its stack (Boost.Context throws
// `forced_unwind` at its suspension point), so the body's destructors run; a body must let that
// exception through (a `catch (...)` must rethrow).

#include <cstddef>
#include <functional>
#include <vector>

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

namespace weft::scheduler {

class StackPool {
 public:
  explicit StackPool(std::size_t stack_bytes) : allocator_(stack_bytes) {}
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  boost::context::stack_context take();
  void give(boost::context::stack_context stack) { free_.push_back(stack); }
  std::size_t allocated() const { return allocated_; }

 private:
  boost::context::protected_fixedsize_stack allocator_;
  std::vector<boost::context::stack_context> free_;
  std::size_t allocated_ = 0;
};

class Fiber {
 public:
  Fiber(StackPool& pool, std::function<void()> body);
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
  ~Fiber() = default;  // unwinds an unfinished body

  // From the scheduler: runs the body until it suspends or returns.
  void resume();
  // From inside the body: returns to whoever resumed it.
  void suspend();
  bool finished() const { return finished_; }

 private:
  std::function<void()> body_;
  boost::context::fiber self_;
  boost::context::fiber caller_;
  bool finished_ = false;
};

// Boost.Context throws this into a fiber destroyed before it finished; re-exported so code
// that catches everything can let it through without naming Boost's detail namespace.
using ForcedUnwind = boost::context::detail::forced_unwind;

}  // namespace weft::scheduler
