#pragma once
// Fiber stacks. Each is one mapping with a PROT_NONE guard page at its bottom, so a fiber that
// runs off its stack faults there instead of corrupting memory (scheduler/fiber/fiber_rescue.hpp
// turns that fault into a finding). A pool allocates stacks once and hands them out again to
// every execution of a simulation (a fresh guarded stack costs ~6 us, a pooled one ~50 ns).
//
// A stack whose fiber was abandoned in mid-run (it overflowed, was interrupted by the watchdog,
// or swallowed a teardown) is retired instead: never handed out again, since dead frames that
// were never unwound still lie on it. Ordinary builds unmap it at once; sanitizer builds keep it
// mapped for the life of the process as a leak-checker root region (scheduler/fiber/sanitizer.hpp).
//
// The pool also carries the FiberActivity of its fibers: what a watchdog thread may observe.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/context/stack_context.hpp>

namespace weft::scheduler {

std::size_t page_bytes();

struct Stack {
  std::byte* bottom = nullptr;  // the lowest mapped address: the guard page starts here
  std::size_t bytes = 0;        // mapped bytes, the guard page included
  unsigned valgrind_id = 0;

  std::byte* top() const { return bottom + bytes; }
  std::byte* usable_bottom() const { return bottom + page_bytes(); }
  bool contains(const void* address) const {
    const auto* at = static_cast<const std::byte*>(address);
    return at >= bottom && at < top();
  }
  bool in_guard(const void* address) const {
    const auto* at = static_cast<const std::byte*>(address);
    return at >= bottom && at < usable_bottom();
  }
  boost::context::stack_context context() const;
};

// Written by the thread that runs the pool's fibers, read by a watchdog thread. Counting a
// switch is a relaxed load and store of one word: no cost worth naming on the step path.
class FiberActivity {
 public:
  // Odd while one of the pool's fibers runs, even while the scheduler does; each fiber run has
  // its own number.
  std::uint64_t switches() const { return switches_.load(std::memory_order_relaxed); }
  void count_switch() { switches_.store(switches_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  // The watchdog asks to interrupt the fiber run numbered `run`; the signal handler checks that
  // this run is still the one going on.
  void request_interrupt(std::uint64_t run) { interrupt_.store(run, std::memory_order_relaxed); }
  bool interrupt_requested() const { return interrupt_.load(std::memory_order_relaxed) == switches(); }
  // The label of the fiber resumed last (for the watchdog's last-resort message).
  void set_running(const char* label) { running_.store(label, std::memory_order_relaxed); }
  const char* running() const { return running_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> switches_{0};
  std::atomic<std::uint64_t> interrupt_{UINT64_MAX};
  std::atomic<const char*> running_{""};
};

class StackPool {
 public:
  // `stack_bytes`: the usable bytes of each stack (rounded up to whole pages).
  explicit StackPool(std::size_t stack_bytes);
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  Stack take();
  void give(const Stack& stack);
  void retire(const Stack& stack);
  // A stack that no fiber runs on, mapped at the first call and kept for the pool's life: the
  // direct step loop makes its bookkeeping's calls on it (scheduler/fiber/other_stack.hpp). It is
  // never handed to a fiber: taken and given back at each execution, memcheck reported the top of
  // it as unaddressable when a fiber got it after an execution in which a fiber was rescued.
  const Stack& loop_stack();

  std::size_t allocated() const { return allocated_; }  // stacks mapped so far
  std::size_t retired() const { return retired_; }
  std::size_t stack_bytes() const { return usable_bytes_; }
  FiberActivity& activity() { return activity_; }

 private:
  std::size_t usable_bytes_;
  std::vector<Stack> free_;
  Stack loop_stack_;
  std::size_t allocated_ = 0;
  std::size_t retired_ = 0;
  FiberActivity activity_;
};

}  // namespace weft::scheduler
