#include "scheduler/fiber/fiber.hpp"

#include <algorithm>
#include <cstring>

#include "scheduler/fiber/fiber_rescue.hpp"

namespace weft::scheduler {

void Fiber::prepare_thread() {
  rescue::prepare_thread();
  thread_prepared_ = true;
}

std::size_t Fiber::stack_left() const {
  const auto* frame = static_cast<const std::byte*>(__builtin_frame_address(0));
  if (!stack_.contains(frame)) return stack_bytes();
  return static_cast<std::size_t>(frame - stack_.usable_bottom());
}

__attribute__((no_sanitize("address"))) void Fiber::begin_rescue(End why) noexcept {
  end_ = why;
  rescued_ = true;
  rescue::unblock_signals();     // the handler never returns, so the kernel will not unblock them
  rescue::leave_signal_stack();  // nor clear its frames' poison (sanitizer builds)
  sanitizer::start_switch(nullptr, caller_bottom_, caller_size_);
}

void Fiber::set_label(std::string_view label) {
  const std::size_t length = std::min(label.size(), sizeof label_ - 1);
  std::memcpy(label_, label.data(), length);
  label_[length] = '\0';
}

}  // namespace weft::scheduler
