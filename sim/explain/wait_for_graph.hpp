#pragma once
// Why a deadlock cannot move: the wait-for graph of the blocked cores.
//
// Each blocked core waits on its own cell of a semaphore, needing more units than it holds. The
// cores that could add units are the ones that signalled that cell in the recorded execution
// (directly, or through a DMA they started whose phase signals it); DMAs still pending towards
// it are listed too. Each of them either returned (it will signal nothing more) or is blocked
// itself, which is an edge of the wait-for graph (Holt, "Some Deadlock Properties of Computer
// Systems", 1972): core k waits for core j when j signalled k's cell and j is blocked. A
// cycle of that graph is the deadlock as the kernel author reads it ("device 0 core 0 waits for
// device 1 core 0, which waits for device 0 core 0"); a cell whose signallers all returned is a wait nobody can
// satisfy.
//
// Only cores that signalled a cell in this run are known to be able to: a core that never got
// as far as its signal is not named. The report says so ("signalled in this run by").
//
// Each blocked core's wait is told with what it needs (in bytes, for a cell DMAs signal) and what
// can still arrive, from whom: the DMAs into that cell not landed yet, and the signallers that
// have not returned. When nothing can (every DMA landed, every signaller returned or is the
// waiting core itself), the wait is an over-wait, not a cycle: it asks for more than was ever
// sent (a wait for f32 bytes on a bf16 copy, a descriptor of the wrong size). A core is never
// its own wait-for edge: what it signalled came before its wait. DMAs of the Pallas pipeline
// are named by their origin (operand, fetch or write-back, grid point, block).
//
// A recording cannot tell whether a blocked signaller would have signalled again after its wait:
// a ring of over-waits whose signallers are all blocked is told as a cycle, worded as what is
// known ("each waits for more from the next, which can signal again only after its own wait").

#include <vector>

#include "model/failure.hpp"
#include "sim/explain/explanation.hpp"

namespace weft::sim {

Explanation explain_deadlock(const TraceRecorder& recorder, const std::vector<model::FailureSite>& blocked);

}  // namespace weft::sim
