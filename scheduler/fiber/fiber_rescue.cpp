#include "scheduler/fiber/fiber_rescue.hpp"

#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <mutex>

#include "scheduler/fiber/fiber.hpp"
#include "scheduler/fiber/kernel_code.hpp"
#include "scheduler/fiber/sanitizer.hpp"

// Everything that runs inside a handler is left uninstrumented and calls no intercepted libc
// function: a handler that switches away leaves its frames on the alternate stack, and in a
// sanitizer build their stale poison would otherwise be mistaken for a bug the next time.
#define WEFT_SIGNAL_SAFE __attribute__((no_sanitize("address")))

namespace weft::scheduler::rescue {
namespace {

constexpr int interrupt = SIGURG;                   // ignored by default, so a stray one harms nothing
constexpr std::size_t below_guard_slack = 1 << 20;  // a frame that jumped over the guard page

// --- the process-wide state (see the header): written once, then only read ---
struct CodeRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};
// The faults a body may raise in its own code, each with the handler ours displaced.
constexpr std::array<int, 4> fault_signals{SIGSEGV, SIGBUS, SIGILL, SIGFPE};
struct ProcessState {
  std::once_flag installed;
  std::mutex reinstalling;
  std::array<struct sigaction, fault_signals.size()> previous{};
  std::array<CodeRange, 16> program_code{};
  std::size_t program_ranges = 0;
};
ProcessState& process() {
  static ProcessState state;
  return state;
}

// The thread's alternate signal stack, when weft made it.
constexpr std::size_t alt_stack_bytes = 64 * 1024;
struct AltStack {
  void* memory = nullptr;
  bool ours = false;  // installed as the thread's alternate stack
  ~AltStack() {
    if (memory == nullptr) return;
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == memory) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    munmap(memory, alt_stack_bytes);
  }
};
thread_local AltStack alt_stack;

int note_program_code(dl_phdr_info* info, std::size_t, void* data) {
  auto& state = *static_cast<ProcessState*>(data);
  for (int i = 0; i < info->dlpi_phnum && state.program_ranges < state.program_code.size(); ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0) continue;
    const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    state.program_code[state.program_ranges++] = {begin, begin + header.p_memsz};
  }
  return 1;  // the first object is the main program: stop there
}

WEFT_SIGNAL_SAFE bool in_program_code(std::uintptr_t pc) {
  const ProcessState& state = process();
  for (std::size_t i = 0; i < state.program_ranges; ++i)
    if (pc >= state.program_code[i].begin && pc < state.program_code[i].end) return true;
  return false;
}

struct Registers {
  std::uintptr_t pc = 0;
  std::uintptr_t sp = 0;
};
WEFT_SIGNAL_SAFE Registers registers_of(void* context) {
  [[maybe_unused]] const auto* user = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return {static_cast<std::uintptr_t>(user->uc_mcontext.gregs[REG_RIP]),
          static_cast<std::uintptr_t>(user->uc_mcontext.gregs[REG_RSP])};
#elif defined(__aarch64__)
  return {static_cast<std::uintptr_t>(user->uc_mcontext.pc), static_cast<std::uintptr_t>(user->uc_mcontext.sp)};
#else
  return {};  // unknown: never rescued
#endif
}

// Only the body's own code may be abandoned in the middle (see the header).
WEFT_SIGNAL_SAFE bool rescuable(const Fiber& fiber, Registers at) {
  return at.pc != 0 && !fiber.in_runtime() && (in_program_code(at.pc) || in_kernel_code(at.pc));
}

WEFT_SIGNAL_SAFE void write_text(const char* text) {
  std::size_t length = 0;
  while (text[length] != '\0') ++length;
  for (std::size_t left = length; left > 0;) {
    const ssize_t written = write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}

[[noreturn]] WEFT_SIGNAL_SAFE void exit_on_unsafe_overflow(const Fiber& fiber) {
  write_text("weft: ");
  write_text(fiber.label());
  write_text(
      " overflowed its fiber stack inside weft or a library function, where it cannot be abandoned "
      "safely; raise scheduler.stack_bytes or bound the recursion (internal error, exit 3)\n");
  _exit(3);
}

WEFT_SIGNAL_SAFE const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    default:
      return "SIGFPE";
  }
}

WEFT_SIGNAL_SAFE void chain(int signal, siginfo_t* info, void* context) {
  std::size_t slot = 0;
  while (slot + 1 < fault_signals.size() && fault_signals[slot] != signal) ++slot;
  const struct sigaction& previous = process().previous[slot];
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != nullptr) {
    previous.sa_handler(signal);
    return;
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigaction(signal, &fallback, nullptr);  // the fault happens again on return, and is fatal
}

// A fault of a body that cannot be abandoned: named, then left to the handler before ours.
WEFT_SIGNAL_SAFE void name_unsafe_fault(const Fiber& fiber, int signal) {
  write_text("weft: ");
  write_text(fiber.label());
  write_text(" raised ");
  write_text(signal_name(signal));
  write_text(" inside weft or a library function, where it cannot be abandoned safely (internal error)\n");
}

WEFT_SIGNAL_SAFE void on_fault(int signal, siginfo_t* info, void* context) {
  Fiber* fiber = Fiber::current();
  if (fiber != nullptr) {
    const Stack& stack = fiber->stack();
    const Registers at = registers_of(context);
    const auto low = reinterpret_cast<std::uintptr_t>(stack.bottom);
    const bool sp_ran_off = at.sp != 0 && at.sp < reinterpret_cast<std::uintptr_t>(stack.usable_bottom()) &&
                            at.sp + below_guard_slack >= low;
    if (signal == SIGSEGV && (stack.in_guard(info->si_addr) || sp_ran_off)) {
      if (!rescuable(*fiber, at)) exit_on_unsafe_overflow(*fiber);
      fiber->rescue(Fiber::End::stack_overflow);
    }
    // Raised by the fiber's body itself (not by a signal sent from elsewhere, nor on another stack).
    const bool raised_here = info->si_code > 0 && stack.contains(reinterpret_cast<const void*>(at.sp));
    if (raised_here && rescuable(*fiber, at)) {
      const bool has_address = signal == SIGSEGV || signal == SIGBUS;
      fiber->note_fault(
          {signal, info->si_code, at.pc, has_address ? reinterpret_cast<std::uintptr_t>(info->si_addr) : 0});
      fiber->rescue(Fiber::End::faulted);
    }
    if (raised_here) name_unsafe_fault(*fiber, signal);
  }
  chain(signal, info, context);
}

WEFT_SIGNAL_SAFE void on_interrupt(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  Fiber* fiber = Fiber::current();
  if (fiber != nullptr && fiber->pool().activity().interrupt_requested()) {
    const Registers at = registers_of(context);
    if (fiber->stack().contains(reinterpret_cast<const void*>(at.sp)) && rescuable(*fiber, at))
      fiber->rescue(Fiber::End::interrupted);
  }
  errno = saved_errno;  // not now: the watchdog asks again
}

bool is_ours(const struct sigaction& action, void (*handler)(int, siginfo_t*, void*)) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == handler;
}

// Installs `handler` for `signal` unless it is there already, noting what it displaces.
bool take_signal(int signal, void (*handler)(int, siginfo_t*, void*), int flags, struct sigaction* displaced) {
  struct sigaction current {};
  sigaction(signal, nullptr, &current);
  if (is_ours(current, handler)) return false;
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
  sigemptyset(&action.sa_mask);
  if (displaced != nullptr) *displaced = current;  // before ours can run, so it never reads it half written
  sigaction(signal, &action, nullptr);
  return true;
}

}  // namespace

void install() {
  ProcessState& state = process();
  std::lock_guard lock(state.reinstalling);
  std::call_once(state.installed, [&state] {
    dl_iterate_phdr(note_program_code, &state);
    take_signal(interrupt, on_interrupt, SA_RESTART, nullptr);
  });
  for (std::size_t i = 0; i < fault_signals.size(); ++i) take_signal(fault_signals[i], on_fault, 0, &state.previous[i]);
}

void prepare_thread() {
  if (alt_stack.ours) return;
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0 &&
      current.ss_size >= static_cast<std::size_t>(MINSIGSTKSZ) * 4)
    return;  // the thread has one: ours, or its own (a sanitizer runtime installs one)
  if (alt_stack.memory == nullptr) {
    void* memory = mmap(nullptr, alt_stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;  // then an overflow is fatal, as without weft
    alt_stack.memory = memory;
  }
  stack_t ours{};
  ours.ss_sp = alt_stack.memory;
  ours.ss_size = alt_stack_bytes;
  alt_stack.ours = sigaltstack(&ours, nullptr) == 0;
}

int interrupt_signal() { return interrupt; }

WEFT_SIGNAL_SAFE void leave_signal_stack() noexcept {
  stack_t current{};
  if (syscall(SYS_sigaltstack, nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0)
    sanitizer::forget_stack(current.ss_sp, current.ss_size);
}

WEFT_SIGNAL_SAFE void unblock_signals() noexcept {
  // The kernel's signal mask as the raw system call takes it: one bit per signal.
  unsigned long mask = 1UL << (interrupt - 1);
  for (const int signal : fault_signals) mask |= 1UL << (signal - 1);
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &mask, nullptr, sizeof mask);
}

}  // namespace weft::scheduler::rescue
