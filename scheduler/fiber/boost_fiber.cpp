#include "scheduler/fiber/boost_fiber.hpp"

#include <cstdlib>
#include <memory>

#include <boost/fiber/context.hpp>
#include <boost/fiber/operations.hpp>

#include "scheduler/fiber/sanitizer.hpp"
#include "scheduler/fiber/sole_ready.hpp"

namespace weft::scheduler {
namespace {

// A Boost.Context stack allocator that lends Boost.Fiber one stack taken from the pool, and
// gives it back when Boost.Fiber releases the ended fiber. Copied by value into the fiber.
struct LentStack {
  StackPool* pool;
  Stack stack;
  boost::context::stack_context allocate() { return stack.context(); }
  void deallocate(boost::context::stack_context&) noexcept { pool->give(stack); }
};

}  // namespace

BoostFiber::BoostFiber(StackPool& pool, std::function<void()> body) : Fiber(pool), body_(std::move(body)) {
  stack_ = pool.take();
}

BoostFiber::~BoostFiber() {
  if (end_ != End::none) return;  // returned and released, or abandoned
  if (!started_) {
    pool_->give(stack_);  // never lent to Boost.Fiber: the body never runs
    return;
  }
  unwinding_ = true;
  switch_in();
  if (end_ == End::none) abandon();  // the body caught ForcedUnwind and suspended again
}

void BoostFiber::resume() {
  if (finished()) return;
  switch_in();
}

void BoostFiber::switch_in() {
  Fiber* const outer = enter(this);
  SoleReady::install_on_this_thread();
  FiberActivity& activity = pool_->activity();
  activity.count_switch();
  activity.set_running(label());
  boost::fibers::context* const caller = boost::fibers::context::active();
  caller_ = caller;
  sanitizer::start_switch(&caller_fake_stack_, stack_.usable_bottom(), stack_.bytes - page_bytes());
  if (!started_) {
    started_ = true;
    // Launched as ready (launch::post): the one fiber SoleReady holds.
    fiber_ = boost::fibers::fiber(boost::fibers::launch::post, std::allocator_arg, LentStack{pool_, stack_},
                                  [this] { run(); });
  } else {
    caller->schedule(self_);
  }
  caller->suspend();  // Boost.Fiber picks the one ready fiber: this one
  sanitizer::finish_switch(caller_fake_stack_, nullptr, nullptr);
  activity.count_switch();
  leave(outer);
  after_switch_in();
}

void BoostFiber::run() {
  self_ = boost::fibers::context::active();
  sanitizer::finish_switch(nullptr, &caller_bottom_, &caller_size_);
  try {
    body_();
  } catch (const ForcedUnwind&) {
    // the unwinding this fiber's destructor asked for is complete
  }
  end_ = End::returned;
  sanitizer::start_switch(nullptr, caller_bottom_, caller_size_);  // this stack is done
  self_->schedule(caller_);
  // Returning ends the Boost.Fiber fiber, which switches to the one ready fiber: the caller.
}

void BoostFiber::after_switch_in() {
  if (rescued_) {
    // A signal handler switched here from the body's stack; the fiber's Boost.Fiber context now
    // holds the handler's context on the alternate signal stack. Neither may ever run again.
    rescued_ = false;
    forsake();
    pool_->retire(stack_);
    return;
  }
  if (end_ == End::returned) release();
}

void BoostFiber::release() {
  fiber_.join();  // ended already: drops the handle's reference at once
  // The dispatcher (the only fiber ready besides the caller, which yield makes ready) releases
  // the ended fiber's context, whose stack goes back to the pool, and switches straight back.
  boost::this_fiber::yield();
  self_ = nullptr;
}

void BoostFiber::suspend() {
  sanitizer::start_switch(&fiber_fake_stack_, caller_bottom_, caller_size_);
  {
    const Arrival arrival(*this);
    self_->schedule(caller_);
    self_->suspend();  // Boost.Fiber picks the one ready fiber: the caller
  }
  if (unwinding_) throw ForcedUnwind{};  // at the body's suspension point, on its stack
}

void BoostFiber::abandon() {
  if (finished()) return;
  end_ = End::abandoned;
  forsake();
  pool_->retire(stack_);
}

void BoostFiber::forsake() {
  if (self_ != nullptr) {
    intrusive_ptr_add_ref(self_);  // never released: the last release would resume the context
    self_->detach();               // the thread's scheduler no longer waits for it to end
    self_ = nullptr;
  }
  if (fiber_.joinable()) fiber_.detach();
}

__attribute__((no_sanitize("address"))) void BoostFiber::rescue(End why) noexcept {
  begin_rescue(why);
  self_->schedule(caller_);
  self_->suspend();
  std::abort();  // unreachable: nothing resumes a rescued fiber
}

}  // namespace weft::scheduler
