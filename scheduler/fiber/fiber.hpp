#pragma once
// A core's fiber: it runs one body on its own stack and switches only when told (`resume` from
// the scheduler's side, `suspend` from inside). It never decides who runs next. This is the
// interface the engine drives; two backends implement it (fiber_backend.hpp): Boost.Context
// (context_fiber.hpp, the default) and Boost.Fiber (boost_fiber.hpp). Through this interface a
// resume and a suspend are one virtual call each; the engine calls the default backend's inline
// versions directly instead (context_fiber.hpp says why). finished() and end() are plain reads.
//
// Stacks come from a StackPool: guarded stacks allocated once and reused by every execution of
// a simulation. Destroying a fiber that has not finished unwinds its stack (ForcedUnwind is
// thrown at its suspension point), so the body's destructors run; a body must let that
// exception through (a `catch (...)` must rethrow). A fiber that never ran is destroyed without
// running its body.
//
// A fiber can also end without finishing, and is then *abandoned*: never resumed, never
// unwound, its stack retired (stack_pool.hpp). That happens when its body overflows the stack
// or is interrupted by a watchdog, or faults in its own code (SIGSEGV, SIGBUS, SIGILL, SIGFPE: all
// through fiber_rescue.hpp's signal handlers, which call `rescue` to switch from the signal back
// to the scheduler; `fault` then says what was raised where), or when the owner gives up a
// suspended body that will not unwind (`abandon`). Objects on an abandoned stack are never
// destroyed.
//
// This base class holds what the signal handlers read (the stack, the label, whether the body is
// in weft's own code) and the one thread-local: the fiber now running on the thread. Every switch
// is announced to AddressSanitizer in sanitizer builds (sanitizer.hpp), by each backend.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scheduler/fiber/fiber_backend.hpp"
#include "scheduler/fiber/sanitizer.hpp"
#include "scheduler/fiber/stack_pool.hpp"

namespace weft::scheduler {

// Thrown into a fiber destroyed before it finished; a body that catches everything must let it
// through.
struct ForcedUnwind {};

// What a fault that abandoned a fiber was: the signal, its si_code, the address of the faulting
// instruction and the address it touched (SIGSEGV, SIGBUS; 0 otherwise).
struct Fault {
  int signal = 0;
  int code = 0;
  std::uintptr_t pc = 0;
  std::uintptr_t address = 0;
};

class Fiber {
 public:
  enum class End : std::uint8_t {
    none,            // not ended: runnable (or not yet started)
    returned,        // the body returned (or let ForcedUnwind through)
    stack_overflow,  // abandoned: the body ran into the guard page of its stack
    interrupted,     // abandoned: a watchdog interrupted the body
    faulted,         // abandoned: the body raised SIGSEGV, SIGBUS, SIGILL or SIGFPE in its own code (fault())
    abandoned,       // abandoned by its owner while suspended
  };

  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
  virtual ~Fiber() = default;  // each backend unwinds an unfinished body, leaves an abandoned one

  // From the scheduler: runs the body until it suspends, returns or is abandoned.
  virtual void resume() = 0;
  // From inside the body: returns to whoever resumed it.
  virtual void suspend() = 0;
  // True once the fiber will never run again: it returned or was abandoned.
  bool finished() const { return end_ != End::none; }
  End end() const { return end_; }
  // What the body raised, when end() is faulted.
  const Fault& fault() const { return fault_; }
  // Gives up a suspended fiber for good, without unwinding it.
  virtual void abandon() = 0;

  // From inside the body: bytes of stack left below the caller's frame (out of line, so that
  // its own frame lies below the caller's locals).
  std::size_t stack_left() const;
  std::size_t stack_bytes() const { return pool_->stack_bytes(); }

  // Names the fiber in the one message a signal handler may print ("device 0 core 1").
  void set_label(std::string_view label);
  const char* label() const { return label_; }
  // Marks a fiber that runs a scenario's host code (its setup or check), not a core's kernel.
  void mark_host_code() { host_code_ = true; }
  bool host_code() const { return host_code_; }

  // The fiber running on this thread, or null.
  static Fiber* current() { return running_; }

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
    // The fiber running on this thread when the section began (null off any fiber): weft's API
    // compares it with its core's fiber, so a call from another thread or core costs one compare.
    const Fiber* fiber() const { return fiber_; }

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
  // `why`, and switches to whoever resumed it, which then retires the stack. Never returns.
  [[noreturn]] virtual void rescue(End why) noexcept = 0;
  // Notes the fault a rescue with End::faulted is for (signal-safe; before `rescue`).
  void note_fault(const Fault& fault) noexcept { fault_ = fault; }

 protected:
  explicit Fiber(StackPool& pool) : pool_(&pool) {}

  // Makes `fiber` the one running on this thread (and gives the thread its alternate signal
  // stack the first time); returns the one it replaces.
  static Fiber* enter(Fiber* fiber) {
    if (!thread_prepared_) prepare_thread();
    Fiber* const outer = running_;
    running_ = fiber;
    return outer;
  }
  static void leave(Fiber* outer) { running_ = outer; }
  // What every backend's rescue does before its switch back: marks the body ended by `why`, lets
  // the signals through again and announces the switch to whoever resumed the fiber.
  void begin_rescue(End why) noexcept;

  // Announces to AddressSanitizer, when it goes out of scope in `suspend`, that the body is
  // back on its stack: resumed, or about to unwind.
  class Arrival {
   public:
    explicit Arrival(Fiber& fiber) : fiber_(fiber) {}
    ~Arrival() { sanitizer::finish_switch(fiber_.fiber_fake_stack_, &fiber_.caller_bottom_, &fiber_.caller_size_); }
    Arrival(const Arrival&) = delete;
    Arrival& operator=(const Arrival&) = delete;

   private:
    Fiber& fiber_;
  };

  StackPool* pool_;
  Stack stack_;
  End end_ = End::none;
  bool started_ = false;
  bool unwinding_ = false;  // destroyed while suspended: throw ForcedUnwind at the suspension
  bool rescued_ = false;
  bool host_code_ = false;
  Fault fault_;
  // AddressSanitizer's bookkeeping of both sides (unused in other builds).
  void* fiber_fake_stack_ = nullptr;
  void* caller_fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;

 private:
  static void prepare_thread();

  static inline thread_local Fiber* running_ = nullptr;      // the fiber now running on this thread
  static inline thread_local bool thread_prepared_ = false;  // the thread has an alternate signal stack
  // Read by the signal handlers: volatile, so that no store to it is optimized away.
  volatile bool in_runtime_ = true;
  char label_[48] = "a fiber";
};

}  // namespace weft::scheduler
