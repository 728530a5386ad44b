#pragma once
// The words for a fault that abandoned a fiber (scheduler/fiber/fiber.hpp's Fault): the
// signal and its cause, the address touched, and where the faulting instruction lies, as the
// loaded object and the offset in it (what `addr2line -e OBJECT OFFSET` turns into a source
// line when the object has debug information) and the enclosing function when the object
// exports its name. Called after the rescue, on the scheduler's side (dladdr is not
// signal-safe).
//
//   SIGFPE (integer divide by zero) at /lib/libk.so+0x11d9 (in divide_rows(int))
//   SIGSEGV (address 0x0 is not mapped) at ./build/weft+0x4f2a10

#include <string>

#include "scheduler/fiber/fiber.hpp"

namespace weft::sim {

std::string fault_text(const scheduler::Fault& fault);

}  // namespace weft::sim
