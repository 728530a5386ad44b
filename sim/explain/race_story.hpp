#pragma once
// Why two accesses are unordered, as a kernel author thinks of it.
//
// A race is two accesses, at least one a write, neither in the other's causal past
// (sim/trace/causality.hpp). The kernel author's question is which synchronisation was meant to
// order them and why it did not. The story is told for an intended order "first, then second":
//
//   the chain  the second's causal past holds events of the first's side, the cores that know
//              the first access happened: its own core (for a DMA phase, the core that started
//              the DMA) first, else any core that later heard of it. The last such event E (by
//              core k) is where the second's knowledge of the first ends. The chain is the path
//              from E to the second with the fewest signal -> wait hops (a 0-1 breadth-first
//              search: program order costs nothing, a hop costs one), told hop by hop backwards.
//   the break  E came before k learned of the first access: before its core did it, or before
//              the starter of its DMA waited for that phase's completion (C, k's first event
//              after it). So what E released says nothing about it: "a signal sent before the
//              read completes is not ordered after it".
//   the fixes  move the release (E, or the second access itself when its own core is k and no
//              hop lies between) after C; or, when the first hop's wait took a unit signalled
//              before C and k signals the same cell again after C, let that wait take the later
//              signal (a surplus unit: the capacity semaphore of an early reuse). With no E at
//              all, the second's side never hears from the first's: it must wait for it. When
//              either access is a DMA of the Pallas pipeline, which the author never starts,
//              the fixes are pipeline_advice.hpp's (index map, dimension semantics, the body's
//              own accesses), and such a DMA is named by its origin (operand, grid point, block).
//
// Which access the kernel meant first is not always the one that ran first (an early reuse may
// overwrite a buffer before the read it should have waited for). Both orders are told and the
// one in which the kernel built more of an ordering wins: a chain of signals and waits, else
// the second access following the first's DMA start in program order (a forgotten wait), else
// program order, else the order of the execution.
//
// Race detectors such as ThreadSanitizer report the two accesses (and their stacks); the chain
// and its break go one step further and name the missing happens-before edge (Lamport, 1978),
// in the kernel's own terms (signals, waits, DMA completions) rather than as clock values.

#include "model/failure.hpp"
#include "sim/explain/explanation.hpp"
#include "sim/trace/causality.hpp"

namespace weft::sim {

// The explanation of the race between `earlier` and `later` (failure sites of the recorded
// execution); empty if the recording does not hold the earlier access.
Explanation explain_race(const TraceRecorder& recorder, const Causality& causality, const model::FailureSite& earlier,
                         const model::FailureSite& later);

}  // namespace weft::sim
