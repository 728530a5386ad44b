#include "scheduler/fiber/context_fiber.hpp"

#include <cstdlib>
#include <memory>

#include "scheduler/fiber/sanitizer.hpp"

namespace weft::scheduler {
namespace {

// A Boost.Context stack allocator that borrows from a pool, notes which stack the fiber got,
// and gives it back when the fiber's record is destroyed (it returned or was unwound).
struct PooledStack {
  StackPool* pool;
  Stack* stack;
  boost::context::stack_context allocate() {
    *stack = pool->take();
    return stack->context();
  }
  void deallocate(boost::context::stack_context&) noexcept { pool->give(*stack); }
};

}  // namespace

ContextFiber::ContextFiber(StackPool& pool, std::function<void()> body, std::unique_ptr<FiberHooks> hooks)
    : Fiber(pool),
      body_(std::move(body)),
      self_(std::allocator_arg, PooledStack{&pool, &stack_},
            [this](boost::context::fiber&& caller) {
              arrived(std::move(caller));
              if (!cancelled_) {
                try {
                  body_();
                } catch (const ForcedUnwind&) {
                  // the unwinding this fiber's destructor asked for is complete
                }
              }
              end_ = End::returned;
              sanitizer::start_switch(nullptr, caller_bottom_, caller_size_);  // this stack is done
              return std::move(caller_);
            }),
      hooks_(std::move(hooks)) {}

ContextFiber::~ContextFiber() {
  if (end_ == End::none) {
    if (started_) {
      unwinding_ = true;
    } else {
      cancelled_ = true;
    }
    switch_in();
    if (end_ == End::none) abandon();  // the body caught ForcedUnwind and suspended again
  }
  // An abandoned fiber's continuation must never be resumed, which destroying it would do;
  // a returned one's is empty.
  if (end_ == End::returned) self_.~fiber();
}

boost::context::fiber ContextFiber::switch_in_to_unwind() {
  return std::move(self_).resume_with([this](boost::context::fiber&& caller) -> boost::context::fiber {
    arrived(std::move(caller));
    throw ForcedUnwind{};  // thrown at the body's suspension point, on its stack
  });
}

void ContextFiber::retire_rescued() {
  // A signal handler switched here from the body's stack; `self_` now holds the handler's
  // context on the alternate signal stack. Neither may ever run again.
  rescued_ = false;
  pool_->retire(stack_);
}

void ContextFiber::abandon() {
  if (finished()) return;
  end_ = End::abandoned;
  pool_->retire(stack_);
}

__attribute__((no_sanitize("address"))) void ContextFiber::rescue(End why) noexcept {
  begin_rescue(why);
  std::move(caller_).resume();
  std::abort();  // unreachable: nothing resumes a rescued fiber
}

}  // namespace weft::scheduler
