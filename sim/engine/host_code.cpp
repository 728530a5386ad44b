#include "sim/engine/host_code.hpp"

#include <exception>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/fiber_backend.hpp"
#include "sim/engine/fault_text.hpp"

namespace weft::sim {

std::optional<std::string> HostCode::run(const char* what, const std::function<void()>& code) {
  if (!on_fiber_) {
    code();
    return std::nullopt;
  }
  if (!stacks_) stacks_ = std::make_unique<scheduler::StackPool>(host_code_stack_bytes);
  std::exception_ptr thrown;
  auto fiber = scheduler::make_fiber(scheduler::FiberBackend::context, *stacks_, [&] {
    try {
      const scheduler::Fiber::UserCode own;  // the scenario's code, which a rescue may abandon
      code();
    } catch (...) {
      thrown = std::current_exception();
    }
  });
  fiber->set_label(what);
  fiber->mark_host_code();
  fiber->resume();
  if (thrown) std::rethrow_exception(thrown);
  switch (fiber->end()) {
    case scheduler::Fiber::End::faulted:
      return "raised " + fault_text(fiber->fault()) + "; it was abandoned";
    case scheduler::Fiber::End::stack_overflow:
      return "overflowed its stack (" + std::to_string(host_code_stack_bytes) +
             " bytes; unbounded recursion?); it was abandoned";
    default:
      return std::nullopt;
  }
}

}  // namespace weft::sim
