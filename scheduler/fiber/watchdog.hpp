#pragma once
// A wall-clock watchdog for the fibers of one pool. A helper thread looks at the pool's
// FiberActivity a few times a second; when one fiber run (a core's own code between two of its
// visible operations) has lasted longer than the budget, it sends the interrupt signal to the
// thread that runs the pool, whose handler abandons the fiber (fiber_rescue.hpp); the owner
// sees Fiber::End::interrupted and reports it.
//
// The watchdog reads a clock and sends a signal, nothing else: it never picks, delays or orders
// a step, so it cannot change a schedule; it can only end a run that would never end.
//
// A fiber that stays where it cannot be interrupted safely (inside weft or a library call) for
// a further grace period (the budget, at least one second, counted from the first interrupt
// asked, and after several were asked) ends the process instead: a message on stderr and exit
// code 3. A starved helper thread therefore never ends a run it has not first tried to interrupt.

#include <pthread.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "scheduler/fiber/stack_pool.hpp"

namespace weft::scheduler {

class Watchdog {
 public:
  // Watches the calling thread's runs of `activity`'s fibers; `budget_seconds` > 0.
  Watchdog(FiberActivity& activity, double budget_seconds);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();  // stops and joins the helper thread

  // True when the calling thread is the one watched.
  bool watches_this_thread() const { return pthread_equal(target_, pthread_self()) != 0; }
  double budget_seconds() const { return budget_; }

 private:
  void watch();

  FiberActivity& activity_;
  const pthread_t target_;
  const double budget_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace weft::scheduler
