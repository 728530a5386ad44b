#include "scheduler/fiber/stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#include "scheduler/fiber/fiber_rescue.hpp"
#include "scheduler/fiber/sanitizer.hpp"

namespace weft::scheduler {

std::size_t page_bytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));  // constant per process
  return bytes;
}

boost::context::stack_context Stack::context() const {
  boost::context::stack_context context;
  context.sp = top();
  context.size = bytes;
  return context;
}

StackPool::StackPool(std::size_t stack_bytes)
    : usable_bytes_((stack_bytes + page_bytes() - 1) / page_bytes() * page_bytes()) {
  rescue::install();  // the handlers that turn an overflow into a finding
  rescue::prepare_thread();
}

StackPool::~StackPool() {
  if (loop_stack_.bottom != nullptr) free_.push_back(loop_stack_);
  for (const Stack& stack : free_) {
    sanitizer::deregister_stack(stack.valgrind_id);
    sanitizer::forget_stack(stack.usable_bottom(), usable_bytes_);
    munmap(stack.bottom, stack.bytes);
  }
}

Stack StackPool::take() {
  if (!free_.empty()) {
    const Stack stack = free_.back();
    free_.pop_back();
    return stack;
  }
  Stack stack;
  stack.bytes = usable_bytes_ + page_bytes();
  void* mapped = mmap(nullptr, stack.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  stack.bottom = static_cast<std::byte*>(mapped);
  if (mprotect(stack.bottom, page_bytes(), PROT_NONE) != 0) {
    munmap(mapped, stack.bytes);
    throw std::bad_alloc();
  }
  stack.valgrind_id = sanitizer::register_stack(stack.usable_bottom(), usable_bytes_);
  ++allocated_;
  return stack;
}

const Stack& StackPool::loop_stack() {
  if (loop_stack_.bottom == nullptr) loop_stack_ = take();
  return loop_stack_;
}

void StackPool::retire(const Stack& stack) {
  ++retired_;
  sanitizer::deregister_stack(stack.valgrind_id);
  if (sanitizer::address_sanitizer) {
    sanitizer::retire_stack(stack.usable_bottom(), usable_bytes_);
    return;
  }
  sanitizer::forget_stack(stack.usable_bottom(), usable_bytes_);
  munmap(stack.bottom, stack.bytes);
}

void StackPool::give(const Stack& stack) {
  sanitizer::forget_stack(stack.usable_bottom(), usable_bytes_);
  free_.push_back(stack);
}

}  // namespace weft::scheduler
