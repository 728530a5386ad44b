#pragma once
// The trace in Chrome's trace event format (a JSON object with "traceEvents"), which
// ui.perfetto.dev and chrome://tracing open.
//
// Mapping (time is the scheduler step, written as 1 µs per step):
//   - one process per device ("device 0", ...), one thread per lane of TraceLayout: a track
//     per core and per DMA lane;
//   - each core's kernel is a B/E span from launch to its return (or the run's end), with one
//     complete slice (X) per operation inside; each DMA is a B/E span on a DMA lane from its
//     start to its landing, with its read and write phases as slices inside (no two slices on
//     one track overlap; every B has its E on the same track, properly nested);
//   - each semaphore cell is a counter track ("C") on its core's device;
//   - flows (s/f, bound to the enclosing slice) go from each signal to every wait that consumed
//     its units, and from each DMA's start to its phases;
//   - the failure is instant events: one per site on its track (the racing accesses, the
//     blocked waits of a deadlock), and one global instant with the verdict.
// Events are sorted by time (ends before begins at one time), one per line, with sorted keys:
// one seed gives byte-identical files.

#include <string>

#include "sim/trace/recorder.hpp"
#include "sim/trace/trace_header.hpp"

namespace weft::sim {

std::string chrome_trace_json(const TraceRecorder& recorder, const TraceHeader& header);

}  // namespace weft::sim
