#pragma once
// Fibers on Boost.Context: a fiber runs one body on its own stack and switches only when told
// (`resume` from the scheduler's side, `suspend` from inside). It never decides who runs next.
//
// Stacks come from a StackPool: guarded stacks allocated once and reused by every execution of
// a simulation. Destroying a fiber that has not finished unwinds its stack (ForcedUnwind is
// thrown at its suspension point), so the body's destructors run; a body must let that
// exception through (a `catch (...)` must rethrow). A fiber that never ran is destroyed without
// running its body.
//
// A fiber can also end without finishing, and is then *abandoned*: never resumed, never
// unwound, its stack retired (stack_pool.hpp). That happens when its body overflows the stack
// or is interrupted by a watchdog (both through fiber_rescue.hpp's signal handlers, which switch
// from the signal back to the scheduler), or when the owner gives up a suspended body that will
// not unwind (`abandon`). Objects on an abandoned stack are never destroyed.
//
// Every switch is announced to AddressSanitizer in sanitizer builds (sanitizer.hpp). The one
// thread-local is the fiber now running on the thread (and, in fiber_rescue.cpp, the thread's
// alternate signal stack).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include <boost/context/fiber.hpp>

#include "scheduler/stack_pool.hpp"

namespace weft::scheduler {

// Thrown into a fiber destroyed before it finished; a body that catches everything must let it
// through.
struct ForcedUnwind {};

class Fiber {
 public:
  enum class End : std::uint8_t {
    none,            // not ended: runnable (or not yet started)
    returned,        // the body returned (or let ForcedUnwind through)
    stack_overflow,  // abandoned: the body ran into the guard page of its stack
    interrupted,     // abandoned: a watchdog interrupted the body
    abandoned,       // abandoned by its owner while suspended
  };

  Fiber(StackPool& pool, std::function<void()> body);
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
  ~Fiber();  // unwinds an unfinished body; leaves an abandoned one alone

  // From the scheduler: runs the body until it suspends, returns or is abandoned.
  void resume();
  // From inside the body: returns to whoever resumed it.
  void suspend();
  // True once the fiber will never run again: it returned or was abandoned.
  bool finished() const { return end_ != End::none; }
  End end() const { return end_; }
  // Gives up a suspended fiber for good, without unwinding it.
  void abandon();

  // From inside the body: bytes of stack left below the caller's frame.
  std::size_t stack_left() const;
  std::size_t stack_bytes() const { return pool_->stack_bytes(); }

  // Names the fiber in the one message a signal handler may print ("(device 0, core 1)").
  void set_label(std::string_view label);
  const char* label() const { return label_; }

  // The fiber running on this thread, or null.
  static Fiber* current();

  // While one of these lives on the running fiber, the fiber is in weft's own code: a watchdog
  // waits for it to return to the body's code before interrupting, and a stack overflow there
  // ends the process. Bodies start inside weft's code; UserCode marks the body's own code.
  class RuntimeSection {
   public:
    RuntimeSection() : RuntimeSection(true) {}
    ~RuntimeSection() {
      if (fiber_ != nullptr) fiber_->in_runtime_ = saved_;
    }
    RuntimeSection(const RuntimeSection&) = delete;
    RuntimeSection& operator=(const RuntimeSection&) = delete;

   protected:
    explicit RuntimeSection(bool in_runtime) : fiber_(current()) {
      if (fiber_ != nullptr) {
        saved_ = fiber_->in_runtime_;
        fiber_->in_runtime_ = in_runtime;
      }
    }

   private:
    Fiber* fiber_;
    bool saved_ = true;
  };
  class UserCode : public RuntimeSection {
   public:
    UserCode() : RuntimeSection(false) {}
  };

  // --- for fiber_rescue.cpp's signal handlers, on this fiber's thread ---
  bool in_runtime() const { return in_runtime_; }
  const Stack& stack() const { return stack_; }
  StackPool& pool() const { return *pool_; }
  // Ends the running body from a signal handler on the alternate signal stack: marks it
  // `why`, and switches to the scheduler, which then retires the stack. Never returns.
  [[noreturn]] void rescue(End why) noexcept;

 private:
  void switch_in();  // resume's switch, annotated
  void after_switch_in();

  StackPool* pool_;
  std::function<void()> body_;
  Stack stack_;
  // The fiber's own continuation, held while it is suspended. Kept in a union so that an
  // abandoned fiber's continuation is neither resumed nor destroyed.
  union {
    boost::context::fiber self_;
  };
  boost::context::fiber caller_;  // the scheduler's continuation, held while the fiber runs
  End end_ = End::none;
  bool started_ = false;
  bool cancelled_ = false;  // destroyed before it started: the body must not run
  bool unwinding_ = false;  // destroyed while suspended: throw ForcedUnwind at the suspension
  // Read by the signal handlers: volatile, so that no store to it is optimized away.
  volatile bool in_runtime_ = true;
  bool rescued_ = false;
  char label_[48] = "a fiber";
  // AddressSanitizer's bookkeeping of both sides (unused in other builds).
  void* fiber_fake_stack_ = nullptr;
  void* caller_fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;
};

}  // namespace weft::scheduler
