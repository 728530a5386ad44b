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
//
// resume and suspend are defined here, inline, for the engine's hot path: a caller that knows
// its fibers are ContextFibers calls them without a virtual call, and the switch is compiled
// into the caller's frame. Every frame between the step loop and the switch (and between the
// kernel and the switch) costs a mispredicted return per step, since the return stack the CPU
// predicts from belongs to the other side of the switch.

#include <functional>
#include <memory>

#include <boost/context/fiber.hpp>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_hooks.hpp"

namespace weft::scheduler {

class ContextFiber final : public Fiber {
 public:
  // `hooks`, when given, are called around every switch into the fiber (fiber_hooks.hpp).
  ContextFiber(StackPool& pool, std::function<void()> body, std::unique_ptr<FiberHooks> hooks = nullptr);
  ~ContextFiber() override;  // unwinds an unfinished body; leaves an abandoned one alone

  [[gnu::always_inline]] void resume() override {
    if (finished()) return;
    started_ = true;
    switch_in();
  }
  [[gnu::always_inline]] void suspend() override {
    sanitizer::start_switch(&fiber_fake_stack_, caller_bottom_, caller_size_);
    arrived(std::move(caller_).resume());
  }
  // From inside the running body: switches straight to `next`, a started, suspended fiber of
  // the same pool, which takes over this run. Whoever resumed this fiber is resumed when `next`
  // (or a fiber it hands on to) suspends, returns or is rescued; this one waits, suspended,
  // until someone resumes it or hands on to it. One switch instead of a suspend and a resume.
  [[gnu::always_inline]] void hand_to(ContextFiber& next) {
    next.caller_ = std::move(caller_);
    next.caller_bottom_ = caller_bottom_;
    next.caller_size_ = caller_size_;
    next.handed_by_ = this;
    FiberActivity& activity = pool_->activity();
    activity.count_switch();
    activity.set_running(next.label());
    activity.count_switch();
    enter(&next);
    if constexpr (sanitizer::address_sanitizer)
      sanitizer::start_switch(&fiber_fake_stack_, next.stack_.usable_bottom(), next.stack_.bytes - page_bytes());
    arrived(std::move(next.self_).resume());
  }
  // From inside the running body, when the fiber would hand on to itself: a new run begins
  // without a switch (for a watchdog, every run has its own number).
  [[gnu::always_inline]] void go_on() {
    FiberActivity& activity = pool_->activity();
    activity.count_switch();
    activity.count_switch();
  }
  void abandon() override;
  [[noreturn]] void rescue(End why) noexcept override;

 private:
  // resume's switch, annotated (the unwinding switch of the destructor out of line). The run it
  // starts may end on another fiber, handed on to (hand_to): the one running when control comes
  // back keeps the continuation it left.
  [[gnu::always_inline]] void switch_in() {
    if (hooks_) hooks_->entering();
    Fiber* const outer = enter(this);
    FiberActivity& activity = pool_->activity();
    activity.count_switch();
    activity.set_running(label());
    if constexpr (sanitizer::address_sanitizer)
      sanitizer::start_switch(&caller_fake_stack_, stack_.usable_bottom(), stack_.bytes - page_bytes());
    boost::context::fiber back = unwinding_ ? switch_in_to_unwind() : std::move(self_).resume();
    auto& last = static_cast<ContextFiber&>(*current());
    last.self_ = std::move(back);
    sanitizer::finish_switch(caller_fake_stack_, nullptr, nullptr);
    activity.count_switch();
    leave(outer);
    if (last.rescued_) last.retire_rescued();
    if (hooks_) hooks_->left();
  }
  // On this fiber's stack, right after a switch to it: keeps the continuation of whoever
  // switched (the resumer's, or the fiber's that handed on to this one).
  [[gnu::always_inline]] void arrived(boost::context::fiber&& back) {
    if (handed_by_ == nullptr) {
      sanitizer::finish_switch(fiber_fake_stack_, &caller_bottom_, &caller_size_);
      caller_ = std::move(back);
    } else {
      sanitizer::finish_switch(fiber_fake_stack_, nullptr, nullptr);
      handed_by_->self_ = std::move(back);
      handed_by_ = nullptr;
    }
  }
  boost::context::fiber switch_in_to_unwind();
  void retire_rescued();

  std::function<void()> body_;
  // The fiber's own continuation, held while it is suspended. Kept in a union so that an
  // abandoned fiber's continuation is neither resumed nor destroyed.
  union {
    boost::context::fiber self_;
  };
  boost::context::fiber caller_;       // the resumer's continuation, held while the fiber runs
  ContextFiber* handed_by_ = nullptr;  // set by hand_to until the switch is complete
  std::unique_ptr<FiberHooks> hooks_;
  bool cancelled_ = false;  // destroyed before it started: the body must not run
};

}  // namespace weft::scheduler
