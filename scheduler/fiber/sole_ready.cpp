#include "scheduler/fiber/sole_ready.hpp"

#include <unistd.h>

#include <cstdio>

#include <boost/fiber/operations.hpp>
#include <boost/fiber/type.hpp>

#include "scheduler/fiber/fiber.hpp"

namespace weft::scheduler {
namespace {

thread_local bool installed = false;  // this thread's Boost.Fiber scheduler uses SoleReady

[[noreturn]] void internal_error(const char* what) noexcept {
  const Fiber* running = Fiber::current();
  std::fprintf(stderr, "weft: internal error in the boost_fiber backend (%s): %s (exit 3)\n",
               running != nullptr ? running->label() : "no core's fiber running", what);
  std::fflush(stderr);
  _exit(3);
}

}  // namespace

void SoleReady::install_on_this_thread() {
  if (installed) return;
  boost::fibers::use_scheduling_algorithm<SoleReady>();
  installed = true;
}

void SoleReady::awakened(boost::fibers::context* ready) noexcept {
  if (ready->is_context(boost::fibers::type::dispatcher_context)) {
    dispatcher_ = ready;
    return;
  }
  if (next_ != nullptr) internal_error("a second fiber was made ready while one already was");
  next_ = ready;
}

boost::fibers::context* SoleReady::pick_next() noexcept {
  boost::fibers::context* picked = next_;
  if (picked != nullptr) {
    next_ = nullptr;
    return picked;
  }
  picked = dispatcher_;  // the slot is empty only when the backend yields to the dispatcher
  dispatcher_ = nullptr;
  return picked;
}

void SoleReady::suspend_until(const std::chrono::steady_clock::time_point&) noexcept {
  // Boost.Fiber's dispatcher found no fiber to run and would wait for one for ever.
  internal_error("no fiber is ready to run (a fiber suspended without making its caller ready)");
}

}  // namespace weft::scheduler
