#include "scheduler/fiber/other_stack.hpp"

#include "scheduler/fiber/sanitizer.hpp"

namespace weft::scheduler {

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(WEFT_SANITIZE_ADDRESS)

namespace {

// The four arguments arrive in the registers of the platform's C calling convention: object and
// argument stay where `function` expects its two; the old stack pointer waits in a callee-saved
// register, itself saved on the old stack.
[[gnu::naked]] std::size_t weft_call_on_stack(void*, std::size_t, OnStackFunction, std::byte*) noexcept {
#if defined(__x86_64__)
  asm("pushq %rbx\n\t"
      "movq %rsp, %rbx\n\t"
      "movq %rcx, %rsp\n\t"
      "callq *%rdx\n\t"
      "movq %rbx, %rsp\n\t"
      "popq %rbx\n\t"
      "retq\n\t");
#else
  asm("stp x29, x30, [sp, #-16]!\n\t"
      "mov x29, sp\n\t"
      "mov sp, x3\n\t"
      "blr x2\n\t"
      "mov sp, x29\n\t"
      "ldp x29, x30, [sp], #16\n\t"
      "ret\n\t");
#endif
}

}  // namespace

bool changes_stacks() { return true; }

std::size_t call_on_stack(void* object, std::size_t argument, OnStackFunction function, std::byte* top) noexcept {
  return weft_call_on_stack(object, argument, function, top);
}

#else

bool changes_stacks() { return false; }

std::size_t call_on_stack(void* object, std::size_t argument, OnStackFunction function, std::byte*) noexcept {
  return function(object, argument);
}

#endif

}  // namespace weft::scheduler
