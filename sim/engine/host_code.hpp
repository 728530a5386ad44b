#pragma once
// A scenario's setup and host check are code weft does not trust, as its kernels are, but they
// run outside any execution's fibers. So each runs on a fiber of its own (HostCode), on a
// guarded stack of host_code_stack_bytes (as large as a thread's usual stack): a fault its own
// code raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE) or a stack overflow in it is rescued exactly as a
// kernel's is (scheduler/fiber/fiber_rescue.hpp, with the same rule: only in the main program's
// or a kernel library's code, never inside a C or C++ library function) and comes back here as
// words, instead of ending the process. The abandoned fiber's stack is retired; what its frames
// owned leaks.
//
// Why a fiber and not a sigsetjmp around the call: the rescue's handler, its safety rule and
// its bookkeeping (the stack retired, the signals unblocked, the sanitizer told) already exist
// for fibers and are tested; a second recovery path would duplicate them. The cost is two
// fiber switches per call (the check runs once per execution: tens of nanoseconds).
//
// weft's host API (sim/api/host.hpp) is not marked as weft's own code: a fault inside it is
// taken for the setup's. What the setup left half made is never used again (a faulted setup
// ends the command), and a check reads only.
//
// A binding's scenario (ScenarioDefinition::make_fiber: Python) runs its host code directly:
// its interpreter keeps its own stack accounting on the thread's stack.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "scheduler/fiber/stack_pool.hpp"

namespace weft::sim {

inline constexpr std::size_t host_code_stack_bytes = 8 * 1024 * 1024;

class HostCode {
 public:
  // `on_fiber` false: run() calls the code directly (a binding's scenario).
  explicit HostCode(bool on_fiber) : on_fiber_(on_fiber) {}

  // Runs `code`, named `what` in the fiber's label ("the setup"). What it throws is rethrown
  // here. When a fault or a stack overflow abandoned it, returns what happened ("raised SIGFPE
  // (integer divide by zero) at ...; it was abandoned"); otherwise nothing.
  std::optional<std::string> run(const char* what, const std::function<void()>& code);

 private:
  bool on_fiber_;
  std::unique_ptr<scheduler::StackPool> stacks_;  // made at the first run (one stack, reused)
};

}  // namespace weft::sim
