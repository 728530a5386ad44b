#pragma once
// Causality: the happens-before relation of one recorded execution, as an explicit graph over
// its records, for explaining a failure (why two accesses are unordered, what a blocked core
// could have heard) and for the timeline's causal view.
//
// The race detector (model/race_detector.hpp) keeps this relation as vector clocks, which answer
// "does A happen before B?" in one comparison but cannot say *which* synchronisations made up
// an order, or which one is missing. An explanation needs the paths, so here the same relation is
// rebuilt from a recording (a replay with a TraceRecorder, made only when a failure is
// explained): the clock of an event is the set of its ancestors in this graph (Lamport, "Time,
// Clocks, and the Ordering of Events", 1978; Mattern, "Virtual Time and Global States", 1989).
//
// Edges, as the detector makes them:
//   program  an actor's previous record: a core's previous operation; a DMA's read phase after
//            its start, its write phase after its read, each chunk of a write phase that lands
//            in chunks after the one before (the DMA's own order)
//   wake     a signal (a core's, or a DMA phase's) into each wait that acquired it. In `precise`
//            mode a wait acquires exactly the signals whose units it consumed (the recorder's
//            FIFO pairing, semantics.md §3); in `accumulate` mode (the jax profile) every signal
//            sent to the cell before it (the signals since the cell's previous wait: the earlier
//            ones reach it through that wait, the same core's program order).
//
// An access that failed never became a record (the execution stopped before it took effect); it
// is an Event with no record, whose predecessors are its actor's last record before it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/failure.hpp"
#include "sim/trace/recorder.hpp"

namespace weft::sim {

// An edge seen from one end: the record at the other end, and what kind of order it is.
struct CausalEdge {
  enum class Kind : std::uint8_t { program, wake };
  std::size_t record = 0;
  Kind kind = Kind::program;
};

// An event of the execution: a record, or an access that never took effect (`record` is
// no_record) given by its direct predecessors.
struct CausalEvent {
  std::size_t record = no_record;
  std::vector<std::size_t> before;  // an unrecorded event's direct predecessors
};

class Causality {
 public:
  Causality(const TraceRecorder& recorder, bool accumulate);

  // Direct predecessors of a record, program order first.
  const std::vector<CausalEdge>& predecessors(std::size_t record) const { return predecessors_[record]; }
  const std::vector<CausalEdge>& successors(std::size_t record) const { return successors_[record]; }

  // The event a failure site names: its record, or (an access that failed) its predecessors.
  CausalEvent event_of(const model::FailureSite& site) const;
  // Which records happen before `event` (not the event itself): its causal past.
  std::vector<bool> past(const CausalEvent& event) const;
  // Which records `record` happens before, the record included: its causal future.
  std::vector<bool> future(std::size_t record) const;

  // The records of core `global_core`, in program order.
  const std::vector<std::size_t>& core_records(int global_core) const {
    return core_records_[static_cast<std::size_t>(global_core)];
  }
  // The core that performs `record` (a DMA phase: the DMA's starter), or -1.
  int owner_core(std::size_t record) const;

 private:
  void add(std::size_t to, std::size_t from, CausalEdge::Kind kind);
  std::vector<bool> reach_back(std::vector<std::size_t> frontier) const;

  const TraceRecorder& recorder_;
  std::vector<std::vector<CausalEdge>> predecessors_;
  std::vector<std::vector<CausalEdge>> successors_;
  std::vector<std::vector<std::size_t>> core_records_;  // per global core
};

}  // namespace weft::sim
