#pragma once
// Rescuing a fiber from a signal: how a stack overflow or a watchdog's interrupt ends one
// fiber's body instead of the whole process.
//
// - SIGSEGV: a fault in the guard page of the running fiber's stack (or with the stack pointer
//   run below it) is a stack overflow. The handler runs on an alternate signal stack (the
//   fiber's own is exhausted), marks the fiber, and switches straight to the scheduler's
//   context (Fiber::rescue). The overflowed fiber is abandoned: never resumed, never unwound,
//   its stack retired.
// - SIGSEGV, SIGBUS, SIGILL, SIGFPE raised by the running fiber's body itself (a kernel's null
//   dereference, division by zero, trap; si_code > 0 and the stack pointer on the fiber's stack)
//   abandon it the same way, marked End::faulted with the Fault noted (fiber.hpp). A fault the
//   rule below does not allow to rescue is named on stderr (the fiber's label and the signal)
//   and, like a fault off any fiber or a signal sent from elsewhere, goes to the handler that
//   was installed before (the default action, or a sanitizer's report).
// - SIGURG (interrupt_signal): sent by a watchdog thread (watchdog.hpp) to the thread running
//   a fiber whose current run it asked to interrupt; the handler rescues it the same way.
//
// Abandoning a body in the middle of an arbitrary instruction is safe only where nothing it
// leaves half done will be touched again: in the body's own code. So a rescue happens only
// when the interrupted instruction lies in the main program's code, or in a kernel library's
// (kernel_code.hpp), not in the C or C++ library, which may hold a lock or be half way through
// malloc, and the fiber is not inside weft's own code (Fiber::RuntimeSection). Otherwise an
// interrupt is ignored (the watchdog tries again, and in the end exits with code 3), an
// overflow ends the process with a message and exit code 3, and another fault with a message
// and the signal's own effect. Kernels linked in from other shared
// libraries are therefore never rescued.
//
// Process-wide state, with kernel_code.hpp's the one piece weft has: the address ranges of the main program's code
// (written once, under std::call_once, then only read) and the handlers of the four fault
// signals that ours displaced, to chain to (written under a mutex, before ours is installed, so
// the handler never reads them half written). Someone else may install such a handler after weft (a test
// framework does, around each test): install() puts ours back, chaining to theirs; a
// simulation calls it before its first execution on a thread (sim/engine/simulation.hpp). The
// watchdog's signal (SIGURG) is taken once per process: a program that takes SIGURG for itself
// after that leaves an overrunning kernel uninterrupted. Per thread: an alternate signal stack
// (or the one the thread has already, say from ASan or a test framework), checked until the
// thread has weft's, then taken to stay (code that removes it loses the rescue on that thread).
// Each check is a system call, about a microsecond on a virtual machine: three of them before
// every execution were some 6% of a short explored run.

namespace weft::scheduler::rescue {

// Installs the fault signals' handler unless it is installed (a system call per signal when it
// is), and the watchdog's the first time.
void install();
// Gives the calling thread an alternate signal stack unless it has one (no system call once it
// has weft's).
void prepare_thread();
// The signal a watchdog sends.
int interrupt_signal();
// Clears the sanitizer's poison from the alternate signal stack, which a handler that switches
// away leaves behind in its frames (no-op in ordinary builds).
void leave_signal_stack() noexcept;
// Unblocks the fault signals and the interrupt signal on this thread (a handler that switches away
// never returns, so the kernel would leave them blocked).
void unblock_signals() noexcept;

}  // namespace weft::scheduler::rescue
