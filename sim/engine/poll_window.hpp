#pragma once
// The spin reduction (docs/semantics.md §6): a core that polls, re-reading a semaphore count or a
// small rectangle of a buffer until another core changes it, is blocked while what it reads is
// unchanged, instead of spinning.
//
// Why. A polling loop terminates under every fair schedule, but a scheduler free to pick the
// poller again and again (the explorer, PCT with the poller at the top) runs it until the step
// limit, and a sweep wastes most of its steps on it. Every iteration that re-reads the same
// values with no visible effect of its own in between leaves the machine, and (see the
// assumption below) the core, as they were: running it again teaches nothing until some other
// actor changes one of those values. This is the spin-loop reduction of stateless model
// checking, made dynamic: GenMC's spin-assume transformation (Kokologiannakis, Ren, Vafeiadis,
// "Dynamic Partial Order Reductions for Spinloops", FMCAD 2021) blocks a loop iteration proven
// free of side effects that reads what the previous one read; weft checks the same at run time.
//
// The rule, on what a core has done since its last visible operation with an effect (a store,
// a signal, a wait, a DMA start, an allocation, a barrier, or a read that cannot be tracked): its
// reads, each a (line, target) with the value it got. When the core stands at a read of a
// (line, target) it has read before in that window, the reads since that one are the loop's
// last iteration. The core is blocked, until another actor changes one of those values, when
// the read it stands at would get the value it got last time, and so would each later read of
// the iteration, which also got the same value the two last times it ran. The second condition
// is what makes the core's state now the one it had an iteration ago, so that its next
// iteration follows the same path: in `while (a == 0 || b == 0) { a = load(A); b = load(B); }`,
// standing at B's read with A just read as 1 after a 0, the next iteration exits even if nothing
// changes. A value is known from the second read of its (line, target) on, so a poller of one
// value runs two iterations before it blocks, one of several values three.
//
// What it assumes, and its limits: a polling loop keeps no state of its own that changes from
// one iteration to the next. A loop that counts its tries is taken for a poll: it is blocked
// while others could change what it reads (its interleavings where it reads the same value
// again and moves on are not run), and when nothing can, weft reports a deadlock where the
// kernel would have given up. Such a kernel wants `scheduler.spin_reduction = false`. (A core's
// own state cannot be compared instead: its stack holds heap addresses, which differ from run
// to run with the allocator's history, and a replay must decide as the run did.) Reads that are tracked: a semaphore
// read (Core::read) and a load of at most `value_bytes` bytes inside its buffer; a masked load, a bigger load or one
// outside its buffer ends the window (its loop is not reduced). A window holds at most `capacity` reads; a loop that
// reads more is not reduced either. Cores that keep changing state (a real livelock) are never blocked by it and still
// end in step_limit.
//
// The explorer sees a blocked poller like a blocked wait: not enabled. The step that releases
// it (the change) adds to a pseudo-counter of the core, and the read it was blocked at takes
// from it (sim/ops/objects.hpp, poll_release_touch), so a reversal that would run that read
// before the change is found unrunnable and dropped like a wait's (scheduler/strategies/
// reversibility.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/machine.hpp"
#include "sim/ops/operation.hpp"

namespace weft::sim {

using ops::PollTarget;

class PollWindow {
 public:
  static constexpr std::size_t capacity = 4;
  static constexpr std::size_t value_bytes = 64;

  bool empty() const { return used_ == 0; }
  // The core did something with an effect: no loop iteration spans it.
  void clear() { used_ = 0; }
  // The core just read `target` (after the read).
  void read(const PollTarget& target, const model::Machine& machine);

  // Whether reading `target` now repeats the last iteration with every value unchanged.
  bool spinning(const PollTarget& target, const model::Machine& machine) const;
  // For a report of a blocked poller: "polls semaphore 3, cell of device 0 core 1 (count 0) at
  // k.cpp:12", one per read of the loop.
  std::string describe(const model::Machine& machine) const;

 private:
  struct Value {
    std::int64_t count = 0;
    std::array<std::byte, value_bytes> bytes{};
  };
  struct Observation {
    PollTarget target;
    bool known = false;   // `value` is what the last read of it got
    bool stable = false;  // and the read before got the same
    Value value;
  };
  // The value `target` has now; false if it cannot be tracked.
  static bool value_now(const PollTarget& target, const model::Machine& machine, Value& value);
  static bool same_value(const PollTarget& target, const Value& a, const Value& b);
  // The index of `target`'s observation, or used_.
  std::size_t find(const PollTarget& target) const;

  std::array<Observation, capacity> entries_;  // in the order of their last read
  std::size_t used_ = 0;
};

}  // namespace weft::sim
