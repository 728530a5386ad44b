#pragma once
// Requests to stop a sweep or an exploration: SIGINT, SIGTERM, SIGHUP, and a stdout whose
// reader has gone (SIGPIPE, or a pipe's reader that closed before weft wrote again: `| head`).
// The first request asks it to stop (a sweep stops handing out seeds and finishes the executions
// in flight, then skips shrinking, or, during the shrinking, ends it at the next re-execution;
// explore ends the run in hand), to write what it found and its files, and to say where it
// stopped.
//
// A signal after the first one ends the process at once (status 128 + the signal), unless it is
// the same signal within one second of the first: that is the same request again, as coreutils'
// `timeout` sends SIGTERM to weft and then to its process group. A second Ctrl-C ends weft only
// when pressed a second after the first. A closed stdout never ends it at once: every later
// write to it raises SIGPIPE again.
//
// Process-wide state: the stop flag, and the first signal with its time (one lock-free word, read
// with the async-signal-safe clock_gettime); the stdout watch's thread. None influences a
// scheduling choice.

#include <atomic>

namespace weft::sim {

// Installs the handlers (idempotent) and returns the stop flag.
const std::atomic<bool>& install_interrupt_handlers();
// Whether a stop was requested (false while the handlers are not installed): for a wait outside
// the executions, such as for the reader of a FIFO.
bool stop_was_requested();

}  // namespace weft::sim
