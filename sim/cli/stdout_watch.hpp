#pragma once
// Notices that the reader of stdout has gone when weft is not writing to it: `weft sweep ... |
// head` whose head has exited would otherwise sweep on, silently, until its next write (which
// might be minutes away, at the summary). When stdout is a pipe or a FIFO, a thread waits (in
// poll(2), without a timeout) for its reader to close and then calls `on_gone` once; on anything
// else it does nothing. The thread is detached and runs until the process ends.

namespace weft::sim {

void watch_stdout_reader(void (*on_gone)());

}  // namespace weft::sim
