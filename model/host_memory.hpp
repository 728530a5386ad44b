#pragma once
// The host memory the simulated machine may take. Every buffer of an execution is real memory
// on the host (its contents are kept), so a large configuration (32 devices of two 512 MiB
// buffers) can ask for more than the host has: it was killed by the kernel's OOM killer with
// no message. The buffers of one execution are counted against a budget before each is
// allocated (memory.hpp); past it, a host buffer is a setup error and a kernel allocation an
// out_of_memory finding, each naming the buffer.
//
// The budget is `memory.host_bytes`, or, when that is 0 (the default), half the memory this
// process may use: the physical memory of the machine weft runs on, or the address-space limit
// (`ulimit -v`) or the cgroup's memory.max where lower (memory_limits.hpp). So a finding that
// hits it depends on that machine and those limits, unless the key is set. It bounds one
// execution; `sweep --jobs N` runs N at once.

#include <cstdint>

#include "model/machine_spec.hpp"

namespace weft::model {

// The machine's physical memory in bytes (0 if the system does not say).
std::int64_t physical_memory_bytes();

// The budget for the buffers of one execution under `spec` (see above; the limits are read once).
std::int64_t host_budget_bytes(const MachineSpec& spec);

}  // namespace weft::model
