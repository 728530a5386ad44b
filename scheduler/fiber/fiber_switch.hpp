#pragma once
// How the engine switches to and from a fiber: one inline call, whichever backend runs it.
// With the default backend every fiber is a ContextFiber, whose resume and suspend are inline
// and called without a virtual call (no frame between the caller and the switch, so no
// mispredicted return per frame after it); any other backend goes through Fiber's virtual
// calls. The choice is made once, when the execution's fibers are made.

#include "scheduler/fiber/context_fiber.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"

namespace weft::scheduler {

class FiberSwitch {
 public:
  explicit FiberSwitch(FiberBackend backend) : context_(backend == FiberBackend::context) {}
  // For fibers of a kind no backend names (a binding's own): every switch through the interface.
  static FiberSwitch through_interface() { return FiberSwitch(FiberBackend::boost_fiber); }

  [[gnu::always_inline]] void resume(Fiber& fiber) const {
    if (context_) {
      static_cast<ContextFiber&>(fiber).resume();
    } else {
      fiber.resume();
    }
  }
  [[gnu::always_inline]] void suspend(Fiber& fiber) const {
    if (context_) {
      static_cast<ContextFiber&>(fiber).suspend();
    } else {
      fiber.suspend();
    }
  }
  // Whether fibers can switch from one to another directly: the default backend's can.
  bool direct() const { return context_; }
  // From inside `from`'s body: switches straight to `to` (only when direct()).
  [[gnu::always_inline]] void hand_to(Fiber& from, Fiber& to) const {
    static_cast<ContextFiber&>(from).hand_to(static_cast<ContextFiber&>(to));
  }
  // From inside `fiber`'s body: a new run begins on it, without a switch (only when direct()).
  [[gnu::always_inline]] void go_on(Fiber& fiber) const { static_cast<ContextFiber&>(fiber).go_on(); }

 private:
  bool context_;  // every fiber is a ContextFiber
};

}  // namespace weft::scheduler
