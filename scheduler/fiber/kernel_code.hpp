#pragma once
// Code outside the main program that a rescue may abandon in the middle, as it may the main
// program's (fiber_rescue.hpp): the code of a kernel library (sim/plugin/kernel_library.hpp)
// from its load to its unload. So a kernel of a library that overflows its stack or spins ends
// as a kernel_error, as a built-in kernel does, instead of ending the process.
//
// Process-wide, like the rest of the rescue's state, because a signal handler can read nothing
// else: a fixed table of address ranges whose bounds are atomics (the handler reads them
// without a lock), written under a mutex, each with a count of the KernelCode objects that
// hold it (two commands in one process may load one library). When the table is full a
// library's code is not added: an overflow in it then ends the process (exit 3), as before.

#include <cstdint>

namespace weft::scheduler::rescue {

// While it lives, the executable code of the loaded shared object that holds `address` is
// rescuable. Destroy it before the object is unloaded.
class KernelCode {
 public:
  explicit KernelCode(const void* address);
  ~KernelCode();
  KernelCode(KernelCode&& other) noexcept : address_(other.address_) { other.address_ = nullptr; }
  KernelCode& operator=(KernelCode&&) = delete;
  KernelCode(const KernelCode&) = delete;
  KernelCode& operator=(const KernelCode&) = delete;

 private:
  const void* address_;  // null once moved from
};

// Whether `pc` lies in the code of a library a KernelCode holds (signal-safe).
bool in_kernel_code(std::uintptr_t pc) noexcept;

}  // namespace weft::scheduler::rescue
