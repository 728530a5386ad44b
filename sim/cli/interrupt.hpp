#pragma once
// SIGINT and SIGTERM during a sweep: the first one asks the sweep to stop handing out seeds, so
// it finishes the executions in flight, writes what it found and says where it stopped (then
// skips shrinking, or, during the shrinking, ends it at the next re-execution); a second one ends
// the process at once. The flag is the one piece of process-wide state a signal
// handler needs; it never influences a scheduling choice.

#include <atomic>

namespace weft::sim {

const std::atomic<bool>& install_interrupt_handlers();

}  // namespace weft::sim
