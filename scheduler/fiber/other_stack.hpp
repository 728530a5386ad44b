#pragma once
// A plain function call made on another stack: `call_on_stack` moves the stack pointer to `top`,
// calls `function(object, argument)` there, moves it back and returns what the function returned.
// No context is switched: the same thread, the same fiber (Fiber::current()), registers as any call
// leaves them. The direct step loop runs the bookkeeping between two steps this way on one stack of
// its own (on machines of many cores: sim::loop_stack_min_cores), so that its frames stay in cache
// instead of being written afresh, cold, on the stack of whichever core's step just ended
// (docs/performance/scale.md, "The working set of a step").
//
// Contract: `top` is the top of a mapped stack with room for everything `function` calls,
// aligned to 16 bytes; `function` must not let an exception out (nothing unwinds across the
// switch of stacks), and must not switch fibers (it would leave the other stack's frames behind).
// On x86-64 and AArch64 the call is three instructions around a call; elsewhere, and in
// AddressSanitizer builds (which must be told of every change of stacks), `function` is simply
// called on the current stack: the same results, the old working set.

#include <cstddef>

namespace weft::scheduler {

using OnStackFunction = std::size_t (*)(void* object, std::size_t argument) noexcept;

// Whether call_on_stack really changes stacks in this build.
bool changes_stacks();

std::size_t call_on_stack(void* object, std::size_t argument, OnStackFunction function, std::byte* top) noexcept;

}  // namespace weft::scheduler
