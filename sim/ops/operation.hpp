#pragma once
// The operation table: every kind of visible operation a core can stop at is one entry, a
// struct in a file of this folder that says everything about it in one place (after SimGrid's
// simcall observers, which carry an operation's description to the scheduler and to the model
// checker in one object; shuttle's primitives are models of the same kind). The engine and the
// reports derive everything else from the entry:
//
//   its fields         what the core is about to do, named (the pending description); the
//                      struct lives in the frame of the kernel API call, and the scheduler side
//                      sees it through PendingOp while the core stands at it
//   verb               how messages name it ("loads", "waits"): a static member
//   touches()          a memory verb's access (model::SliceAccess: the slice, the parts, read
//                      or write), from which both its race accesses (Machine::access) and its
//                      footprint come; it then has move(), which moves the data
//   apply()            the effect of any other verb, made of the machine's primitives (add,
//                      take, start a DMA, ...); false, with `failure` filled, when the operation
//                      is a kernel bug
//   footprint()        what a verb without touches() touches, for the explorer's independence
//                      (scheduler/footprint.hpp)
//   waits()            a blocking verb's conditions (Waits): it is enabled once one of them
//                      is met; the step loop, the on_wait DMA policy, deadlock reports and the
//                      wait-for graph all read them. Only blocking verbs have it
//   polls()            what a read reads, for the spin reduction (PollTarget); only reads that
//                      a polling loop may repeat have it
//   event()            its trace event, asked only when a trace is recorded; the engine stamps
//                      the actor, the line and the step
//   starts_dmas        true (a static member) when its effect may start DMAs (Machine::start_dma):
//                      the engine then applies the DMA policy to whatever the machine started
//
// The engine (sim/engine/execution.hpp, `perform`) runs every entry through the same sequence:
// stop at the operation (the scheduler decides when), apply (ops::apply), fail if it failed,
// note its reads for the spin reduction, emit the trace event, and, after a verb with
// starts_dmas, apply the DMA policy to any DMA the machine started. The entries: ops/table.hpp;
// a kernel API verb (sim/api/core.cpp) builds one and hands it to the engine in one line
// (sim/api/core_services.hpp). DMA phases, actors of their own, are the entry of dma_phase.hpp.
// A verb that waits for other cores to *arrive* somewhere (the device barrier) is two entries:
// an arrival the others' departures depend on, then the blocking departure.
//
// A new verb, file by file:
//   sim/ops/<verb>.hpp       its entry (a struct, in a file of its own)
//   sim/ops/table.hpp        its include and its place in `Table`
//   sim/api/core.hpp         its declaration, with a comment for kernel authors
//   sim/api/core.cpp         its body: the API's misuse checks, then `performed(...)`
//   docs/kernel-api.md       its row, and docs/semantics.md §11 its contract
// That is all when the machine already has the effect and an event kind fits. A new effect
// adds its Machine primitive (model/machine.hpp and .cpp; state of its own in a model file of
// its own, race edges in model/race_detector.hpp); a new event kind adds a TraceEvent::Kind
// (sim/events/trace_event.hpp) and its words (sim/trace/describe.cpp). Its tests: race edges
// in tests/model/, a kind of Op in tests/sim/explore_soundness_test.cpp (its footprint
// against plain enumeration), a hostile kernel for each misuse (scenarios/kernels/hostile_api.cpp,
// scenarios/hostile_*.toml, tests/sim/hostile_kernels_test.cpp, docs/hardening.md), and
// tests/allocation/ when kernels call it in loops.

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "model/failure.hpp"
#include "model/machine.hpp"
#include "scheduler/footprint.hpp"
#include "sim/events/trace_event.hpp"

namespace weft::sim::ops {

// What a core stopped at: which entry of the table (its index in ops::Table), the kernel's
// line, and the entry's own record, in the frame of the API call that stopped. The record is
// valid only while the core stands at the operation, which is all the scheduler side needs;
// reports of where a core stood after it moved read only `line`. Small: it is written at every
// step.
// `operation` is null while the core stands at no visible operation: before its first, while it
// runs, and after it failed (it then waits only for teardown). Such a core is never enabled.
struct PendingOp {
  std::uint8_t kind = 0;
  model::SourceLine line;
  const void* operation = nullptr;
};
static_assert(sizeof(PendingOp) <= 32, "PendingOp is written at every step: keep it small");

// Where an operation is performed: by which core, at which line of the kernel.
// (The core first: at offset 0 it is copied in and passed on as one 8-byte word; after the int,
// it was built in two stores and read back in one load, a store-forwarding stall at every step.)
struct OpSite {
  model::CoreId core;
  int global = 0;  // the core's global id
  model::SourceLine line;
};

struct FootprintRules {
  bool ordered_signals = false;  // precise semaphore clocks with race detection: signals do not commute
};

// One condition a blocked core waits for: a cell holding at least `needs`. The cell is the
// semaphore `semaphore`'s on global core `core`, or (device_barrier) that core's device barrier
// cell (model/device_barrier.hpp).
struct Condition {
  int semaphore;  // index in the machine's semaphore table; -1 for the device barrier
  int core;       // the cell's global core
  std::int64_t needs;
  bool device_barrier;  // (false when left out of an initializer)

  std::int64_t holds(const model::Machine& machine) const {
    return device_barrier ? machine.device_barrier().cell(core) : machine.semaphores().count(semaphore, core);
  }
  bool met(const model::Machine& machine) const { return holds(machine) >= needs; }
  // Whether the next phase of `dma`, which signals `semaphore` on global core `core`, fills it.
  bool filled_by(int dma_semaphore, int dma_core) const {
    return !device_barrier && semaphore == dma_semaphore && core == dma_core;
  }
};

// What a blocking entry waits for: it may run once any one of its conditions is met, and
// then takes from the first that is (an entry that waits for one thing has one condition).
// Fixed capacity, no allocation: it is built whenever a blocked core is checked (only the
// first `count` conditions are set).
struct Waits {
  static constexpr std::size_t capacity = 2;
  std::array<Condition, capacity> conditions;
  std::size_t count = 0;

  Waits() = default;
  explicit Waits(const Condition& one) : count(1) { conditions[0] = one; }
  Waits(const Condition& first, const Condition& second) : count(2) {
    conditions[0] = first;
    conditions[1] = second;
  }
  const Condition* begin() const { return conditions.data(); }
  const Condition* end() const { return conditions.data() + count; }
  // The first condition met, or null.
  const Condition* met(const model::Machine& machine) const {
    for (const Condition& condition : *this)
      if (condition.met(machine)) return &condition;
    return nullptr;
  }
};

// What a read reads, for the spin reduction (sim/engine/poll_window.hpp), and where.
struct PollTarget {
  const model::Buffer* buffer = nullptr;  // null: a semaphore cell
  int semaphore = -1;                     // index in the machine's semaphore table
  int global_core = -1;                   // the cell's core
  model::Rect rect;                       // of `buffer`
  model::SourceLine line;
};

// The trace event of an access to `buffer`.
inline TraceEvent access_event(TraceEvent::Kind kind, const model::Buffer* buffer, const model::Rect& rect) {
  TraceEvent event;
  event.kind = kind;
  event.buffer = buffer;
  event.rect = rect;
  return event;
}

// The trace event of a masked access (or a swap) of `slice`: its rectangle, and in `amount`
// how many of its elements the mask kept.
inline TraceEvent masked_event(TraceEvent::Kind kind, const model::Slice& slice, std::span<const model::Rect> parts) {
  TraceEvent event = access_event(kind, slice.buffer, slice.rect);
  for (const model::Rect& part : parts) event.amount += part.volume();
  return event;
}

// The trace event of an arrival at or a departure from the device barrier: the core's own
// barrier cell after it, and in `amount` the arrivals a departure takes.
inline TraceEvent barrier_event(TraceEvent::Kind kind, const model::Machine& machine, int global_core) {
  TraceEvent event;
  event.kind = kind;
  event.target_core = global_core;
  event.amount = machine.device_barrier().cores_per_device();
  event.count = machine.device_barrier().cell(global_core);
  return event;
}

// The trace event of an operation on the cell (semaphore index, target core), after it.
inline TraceEvent cell_event(TraceEvent::Kind kind, const model::Machine& machine, int semaphore, int target_core,
                             std::int64_t amount) {
  TraceEvent event;
  event.kind = kind;
  event.semaphore_id = machine.semaphores().id(semaphore);
  event.target_core = target_core;
  event.amount = amount;
  event.count = machine.semaphores().count(semaphore, target_core);
  return event;
}

}  // namespace weft::sim::ops
