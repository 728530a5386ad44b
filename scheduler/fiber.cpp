#include "scheduler/fiber.hpp"

#include <memory>

namespace weft::scheduler {
namespace {

// A Boost.Context stack allocator that borrows from a pool and gives the stack back.
struct PooledStack {
  StackPool* pool;
  boost::context::stack_context allocate() { return pool->take(); }
  void deallocate(boost::context::stack_context& stack) noexcept { pool->give(stack); }
};

}  // namespace

StackPool::~StackPool() {
  for (auto& stack : free_) allocator_.deallocate(stack);
}

boost::context::stack_context StackPool::take() {
  if (free_.empty()) {
    ++allocated_;
    return allocator_.allocate();
  }
  const auto stack = free_.back();
  free_.pop_back();
  return stack;
}

Fiber::Fiber(StackPool& pool, std::function<void()> body)
    : body_(std::move(body)),
      self_(std::allocator_arg, PooledStack{&pool}, [this](boost::context::fiber&& caller) {
        caller_ = std::move(caller);
        body_();
        finished_ = true;
        return std::move(caller_);
      }) {}

void Fiber::resume() { self_ = std::move(self_).resume(); }

void Fiber::suspend() { caller_ = std::move(caller_).resume(); }

}  // namespace weft::scheduler
