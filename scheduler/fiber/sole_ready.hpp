#pragma once
// The Boost.Fiber scheduling algorithm of the boost_fiber backend: how Boost.Fiber is kept from
// making any decision of its own.
//
// Boost.Fiber switches by asking its scheduling algorithm for the next ready fiber whenever the
// running one suspends, yields or ends; its default algorithms keep a FIFO of ready fibers and
// so decide the order themselves. This one keeps a single slot. The backend (boost_fiber.hpp)
// fills it right before each switch with the one fiber that must run next: the core's fiber that
// the weft scheduler resumes, or, when that fiber suspends or ends, whoever resumed it (the
// thread's main fiber). So `pick_next` never has a choice to make, and every switch goes where
// weft says.
//
// Boost.Fiber's own dispatcher fiber is kept aside: it is ready whenever it is not running (Boost
// makes it so), but it is picked only when the slot is empty, which happens only when the backend
// yields to it on purpose, right after a core's fiber ended, so that it releases the ended fiber
// and its stack goes back to the pool. It then finds the backend's fiber in the slot and switches
// back. Nothing is ever put to sleep, no timer runs, no other thread is involved: the wall clock
// is never read for a decision, and no ordering depends on an address.
//
// Anything else is a bug in weft, and fails loudly instead of hanging: a second fiber made ready
// while the slot is full, or the dispatcher finding nothing to run (Boost.Fiber would wait for
// ever). Both print a message and end the process with exit status 3.
//
// The algorithm takes over the thread's Boost.Fiber scheduler the first time a boost_fiber fiber
// runs on it (`install_on_this_thread`) and stays until the thread ends; each thread has its own.

#include <chrono>

#include <boost/fiber/algo/algorithm.hpp>
#include <boost/fiber/context.hpp>

namespace weft::scheduler {

class SoleReady final : public boost::fibers::algo::algorithm {
 public:
  // Makes this algorithm the scheduling algorithm of the calling thread, once per thread.
  static void install_on_this_thread();

  void awakened(boost::fibers::context* ready) noexcept override;
  boost::fibers::context* pick_next() noexcept override;
  bool has_ready_fibers() const noexcept override { return next_ != nullptr || dispatcher_ != nullptr; }
  void suspend_until(const std::chrono::steady_clock::time_point& until) noexcept override;
  void notify() noexcept override {}  // no other thread ever makes one of these fibers ready

 private:
  boost::fibers::context* next_ = nullptr;        // the one fiber that runs next
  boost::fibers::context* dispatcher_ = nullptr;  // Boost.Fiber's dispatcher, while it is not running
};

}  // namespace weft::scheduler
