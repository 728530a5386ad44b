#pragma once
// The default fiber backend, on Boost.Context (`boost::context::fiber`): a resume is one bare
// context switch into the body's continuation, a suspend one switch back into the caller's,
// about 10 ns each here. Nothing else runs in between, and nothing but the caller decides.
//
// The fiber's Boost.Context record (and so its stack, lent by the pool through PooledStack) is
// created with the fiber and destroyed when the body returns: the stack goes back to the pool at
// once. Destroying a suspended fiber resumes it with a function that throws ForcedUnwind at its
// suspension point (`resume_with`). An abandoned fiber's continuation is kept in a union, so it is
// neither resumed nor destroyed (destroying it would unwind it).

#include <functional>

#include <boost/context/fiber.hpp>

#include "scheduler/fiber.hpp"

namespace weft::scheduler {

class ContextFiber final : public Fiber {
 public:
  ContextFiber(StackPool& pool, std::function<void()> body);
  ~ContextFiber() override;  // unwinds an unfinished body; leaves an abandoned one alone

  void resume() override;
  void suspend() override;
  void abandon() override;
  [[noreturn]] void rescue(End why) noexcept override;

 private:
  void switch_in();  // resume's switch, annotated
  void after_switch_in();

  std::function<void()> body_;
  // The fiber's own continuation, held while it is suspended. Kept in a union so that an
  // abandoned fiber's continuation is neither resumed nor destroyed.
  union {
    boost::context::fiber self_;
  };
  boost::context::fiber caller_;  // the scheduler's continuation, held while the fiber runs
  bool cancelled_ = false;  // destroyed before it started: the body must not run
};

}  // namespace weft::scheduler
