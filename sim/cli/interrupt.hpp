#pragma once
// SIGINT and SIGTERM during a sweep or an exploration: the first one asks it to stop (a sweep
// stops handing out seeds and finishes the executions in flight, then skips shrinking, or,
// during the shrinking, ends it at the next re-execution; explore ends the run in hand), to
// write what it found and say where it stopped; a second one ends the process at once. The
// flag is the one piece of process-wide state a signal handler needs; it never influences a
// scheduling choice.

#include <atomic>

namespace weft::sim {

const std::atomic<bool>& install_interrupt_handlers();

}  // namespace weft::sim
