#pragma once
// The boost_fiber backend: a core's fiber is a `boost::fibers::fiber`, and the weft scheduler
// still makes every decision.
//
// How control stays with weft. The thread's Boost.Fiber scheduler runs the SoleReady algorithm
// (sole_ready.hpp), whose ready queue holds at most one fiber, put there by this class right
// before each switch:
//   - resume: make this fiber the ready one, then suspend the caller (`context::suspend`):
//     Boost.Fiber picks the one ready fiber, this one. The first resume launches the
//     boost::fibers::fiber (`launch::post`, which makes it ready) instead.
//   - suspend, from inside the body: make the caller the ready one, then suspend this fiber.
//   - the body returns: make the caller ready, and let Boost.Fiber end the fiber; it switches to
//     the one ready fiber, the caller. The caller then joins the ended fiber and yields once to
//     Boost.Fiber's dispatcher, which releases it: its stack goes back to the pool.
// A resume and a suspend are one switch each (Boost.Fiber's `resume_with`); no queue, timer or
// clock of Boost.Fiber takes part, so a run gives the same schedule as on the context backend.
//
// Stacks: the fiber's stack is taken from the pool when the fiber is made and lent to Boost.Fiber
// through LentStack (a Boost.Context stack allocator); Boost.Fiber puts its control block at the
// top of it, so a body has a few hundred bytes less stack than on the context backend. A fiber
// that never ran gives its stack back unused.
//
// Unwinding: destroying a suspended fiber resumes it with `unwinding_` set, and suspend() throws
// ForcedUnwind as it returns, at the body's suspension point.
//
// Abandoning (overflow, watchdog, a body that will not unwind): the fiber's Boost.Fiber context
// is detached from the thread's scheduler (so the scheduler does not wait for it when the thread
// ends), given one reference that is never released (releasing the last one would resume it, to
// unwind it) and its handle detached; its stack is retired. The context lives on that stack, so
// nothing of it stays behind on the heap. The signal handlers (fiber_rescue.hpp) rescue a body
// exactly as on the context backend: `rescue` makes the caller ready and suspends the fiber from
// the alternate signal stack, under the same safety rule (the body's own code only; Boost.Fiber's
// code is in a shared library, so a fault in it is never rescued).
//
// Sanitizer builds announce each switch to and from a core's fiber (sanitizer.hpp); the hop to
// the dispatcher and back after a fiber ended is not announced (its stack is Boost.Fiber's own).

#include <functional>

#include <boost/fiber/fiber.hpp>

#include "scheduler/fiber/fiber.hpp"

namespace boost::fibers {
class context;
}

namespace weft::scheduler {

class BoostFiber final : public Fiber {
 public:
  BoostFiber(StackPool& pool, std::function<void()> body);
  ~BoostFiber() override;  // unwinds an unfinished body; leaves an abandoned one alone

  void resume() override;
  void suspend() override;
  void abandon() override;
  [[noreturn]] void rescue(End why) noexcept override;

 private:
  void run();        // the boost::fibers::fiber's function, on this fiber's stack
  void switch_in();  // resume's switch, annotated
  void after_switch_in();
  void release();  // the body returned: join the Boost.Fiber fiber, let the dispatcher free it
  void forsake();  // detach from Boost.Fiber for good, without running it again

  std::function<void()> body_;
  boost::fibers::fiber fiber_;                // launched on the first resume
  boost::fibers::context* self_ = nullptr;    // this fiber's Boost.Fiber context, once it runs
  boost::fibers::context* caller_ = nullptr;  // who resumed it, while it runs (usually the main fiber)
};

}  // namespace weft::scheduler
