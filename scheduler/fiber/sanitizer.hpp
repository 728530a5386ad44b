#pragma once
// Sanitizer hooks for the fiber layer, no-ops in ordinary builds. A build with
// WEFT_SANITIZE=ON (CMake) defines WEFT_SANITIZE_ADDRESS, and then:
//   - every stack switch is announced to AddressSanitizer (`__sanitizer_start_switch_fiber`
//     before it, `__sanitizer_finish_switch_fiber` right after it, on the side that arrives),
//     so ASan knows which stack is current and exceptions thrown on a fiber stack unpoison
//     the right one;
//   - a stack that is given up for good (an overflowed or interrupted fiber) is unpoisoned and
//     stays mapped as a LeakSanitizer root region, so what its dead frames own is not reported
//     as leaked.
// Valgrind's stack registration (WEFT_HAVE_VALGRIND_H) is always on where the header exists:
// outside Valgrind each request is a few no-op instructions.

#include <cstddef>

#if defined(WEFT_SANITIZE_ADDRESS)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

#if defined(WEFT_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#endif

namespace weft::scheduler::sanitizer {

// Before switching to the stack [bottom, bottom + size). `fake_stack` is where ASan keeps this
// side's fake stack while it is away; null when this side will never run again.
inline void start_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const void* bottom,
                         [[maybe_unused]] std::size_t size) {
#if defined(WEFT_SANITIZE_ADDRESS)
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

// Right after arriving on a stack; learns the bounds of the stack that was left, when asked.
inline void finish_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] const void** old_bottom,
                          [[maybe_unused]] std::size_t* old_size) {
#if defined(WEFT_SANITIZE_ADDRESS)
  __sanitizer_finish_switch_fiber(fake_stack, old_bottom, old_size);
#endif
}

// A stack no fiber runs on any more (given back to the pool, or about to be unmapped): clear
// its poison. The frame Boost.Context enters a fiber through never returns, so its redzones stay
// poisoned; after munmap, memory mapped at the same address would inherit them.
inline void forget_stack([[maybe_unused]] void* bottom, [[maybe_unused]] std::size_t size) {
#if defined(WEFT_SANITIZE_ADDRESS)
  ASAN_UNPOISON_MEMORY_REGION(bottom, size);
#endif
}

// A stack nothing will ever run on again: clear its poison, and keep scanning it for pointers.
inline void retire_stack([[maybe_unused]] void* bottom, [[maybe_unused]] std::size_t size) {
#if defined(WEFT_SANITIZE_ADDRESS)
  ASAN_UNPOISON_MEMORY_REGION(bottom, size);
  __lsan_register_root_region(bottom, size);
#endif
}

// Whether this is an AddressSanitizer build. Its retired stacks stay mapped (see retire_stack),
// and callers skip computing the arguments of the switch hooks in other builds.
inline constexpr bool address_sanitizer =
#if defined(WEFT_SANITIZE_ADDRESS)
    true;
#else
    false;
#endif

inline unsigned register_stack([[maybe_unused]] void* bottom, [[maybe_unused]] std::size_t size) {
#if defined(WEFT_HAVE_VALGRIND_H)
  return VALGRIND_STACK_REGISTER(bottom, static_cast<char*>(bottom) + size);
#else
  return 0;
#endif
}

inline void deregister_stack([[maybe_unused]] unsigned id) {
#if defined(WEFT_HAVE_VALGRIND_H)
  VALGRIND_STACK_DEREGISTER(id);
#endif
}

}  // namespace weft::scheduler::sanitizer
