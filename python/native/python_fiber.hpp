#pragma once
// A core's fiber for kernels written in Python: a Boost.Context fiber (its own stack, as every
// core's) that carries a CPython thread state of its own, made current while the fiber runs.
//
// Why: CPython keeps per-thread interpreter state (the frame stack and its data stack, the
// recursion depth, the exception being handled, the context) that a bare stack switch would
// leave pointing into another fiber's frames. A thread state per core keeps each core's
// interpreter state apart, and PyThreadState_Swap, with the GIL held, makes it current: around
// every switch into the fiber (scheduler/fiber/fiber_hooks.hpp) the GIL is taken and the
// core's state swapped in, and after it switched back, swapped out and the GIL released, so a
// command's other threads take turns between steps. greenlet, which swaps the same state, also
// copies each greenlet's stack in and out of one shared stack: weft's engine keeps pointers
// into a suspended core's stack (the operation it stands at), which that copying invalidates.
//
// Inside a core, nothing may call PyGILState_Ensure (its thread state is not the thread's
// own): the bridge never does, and the kernel's own code has no reason to.

#include <functional>
#include <memory>

#include "python/native/python_watchdog.hpp"
#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/stack_pool.hpp"

namespace weft::python {

// Gives a thread Python did not start (a sweep's worker) a Python thread state that lives as long
// as the thread: the GIL can then be taken and given back per step. Idempotent.
void keep_thread_state();

// A fiber of `pool` running `body` with a thread state of its own; `watchdog`, when given,
// watches its runs (python_watchdog.hpp).
std::unique_ptr<scheduler::Fiber> make_python_fiber(scheduler::StackPool& pool, std::function<void()> body,
                                                    PythonWatchdog* watchdog);

}  // namespace weft::python
