#pragma once
// Where the transitions of a run touched each object, filed by chain and by mode, so that
// happens-before (happens_before.hpp) finds a chain's latest transition dependent with a new
// one without walking the chain.
//
// Why. Happens-before needs, for each other chain, the latest of its transitions that is
// dependent with e_j among those not yet known to happen before e_j. Walking the chain back
// transition by transition finds it at once when the chains synchronise often, but two cores
// that never do (each streams its own tiles) share nothing to stop the walk: every transition
// walked the other core's whole past, and a run of n steps cost n times n. Dependence is a
// conflict of two touches of one object (scheduler/footprint.hpp), so only the transitions that
// touched e_j's objects can be dependent with it, and which of them conflict follows from their
// modes alone but for reads and writes, which conflict where their boxes overlap.
//
// How. Per object and chain, the transitions are filed by mode: adds (unordered and ordered
// apart), takes and observes as lists, whose latest entry is the one a conflict by mode finds;
// reads and writes by their box's rank and the start of its first dimension, with the latest of
// each rank and of all, so that a box is tested only against the boxes whose first dimension
// can meet it (start within the largest extent filed). `latest_dependent` returns, per chain,
// the latest filed transition conflicting with a touch of the footprint, among those whose
// position in their chain is above what e_j already knows of the chain: within a bucket a walk
// back stops at the first position known. It gives what walking the chain gave, transition for
// transition (tests/scheduler/happens_before_differential_test.cpp compares with the plain
// construction).
//
// Cut back. `truncate(kept)` takes every transition from `kept` on back out, as if they had never
// been filed (growing_order.hpp files the next run's transitions after the ones two runs share):
// each filing is logged with what it overwrote, and undone latest first, so cutting back costs
// what is taken out.
//
// Invariants: transitions are filed in run order, each under its chain, and positions grow
// along a chain in run order. The index keeps pointers to the touches filed, and reads them
// only while they are filed: a filed transition's touches must not change until it is taken
// back out.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "scheduler/footprint.hpp"
#include "scheduler/strategies/object_table.hpp"

namespace weft::scheduler {

class TouchIndex {
 public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // `positions`: each transition's position in its chain (from 1), filled for every transition
  // filed before a query; it may grow and move while the index lives.
  explicit TouchIndex(const std::vector<std::uint32_t>& positions) : positions_(positions) {}

  // Files transition `event` of `chain` under each object its footprint touches.
  void file(std::size_t event, std::uint32_t chain, const Footprint& footprint);

  // For each chain p other than `own` (own: none to skip none), into latest[p] (which must be
  // sized to the chains, and filled with `none`): the latest filed transition of p dependent
  // with `footprint` whose position is above known[p]; `none` where there is none. Filing the
  // same footprint next (the transition just queried) reuses its lookups of the objects.
  void latest_dependent(const Footprint& footprint, std::uint32_t own, std::span<const std::uint32_t> known,
                        std::vector<std::size_t>& latest);

  // Takes the transitions from `kept` on back out: the index is as it was when they were not filed.
  void truncate(std::size_t kept);

  // The heap bytes it holds (scheduler/strategies/held_bytes.hpp).
  std::size_t memory_bytes() const;

 private:
  struct Entry {
    std::size_t event;
    const Touch* touch;
  };
  struct Rank {
    std::size_t latest = none;
    std::int64_t extent = 0;                              // the largest size of the first dimension filed
    std::map<std::int64_t, std::vector<Entry>> by_start;  // by the start of the first dimension
  };
  struct Boxed {                      // reads, or writes
    std::size_t latest = none;        // of every box
    std::size_t whole_latest = none;  // of rank 0 (the whole object), which meets every box
    std::map<int, Rank> ranks;        // rank >= 1
  };
  struct Lists {                // one object's touches by one chain
    std::size_t newest = none;  // the latest filed of any mode: when it is not above what e_j
                                // knows of the chain, nothing here is, and the chain is skipped
    std::size_t adds = none, ordered_adds = none, takes = none, observes = none;  // the latest of each
    Boxed reads, writes;
  };

  // What filing one touch overwrote, to undo it. The touch itself may be gone by then: its mode,
  // kind of add and rank are kept here.
  struct Undo {
    std::size_t event;
    std::size_t newest;      // Lists::newest before
    std::size_t latest;      // the mode's latest before (a box's: Boxed::latest)
    std::size_t box_latest;  // a box's whole_latest or Rank::latest before
    std::int64_t extent;     // a box's Rank::extent before
    std::int64_t start;      // the bucket its entry went to
    std::uint32_t object, chain;
    TouchMode mode;
    bool ordered;
    int rank;
  };

  // The latest entry of `boxed` whose box meets `box`, above `known`; `none` if there is none.
  std::size_t meeting(const Boxed& boxed, const Box& box, std::uint32_t known) const;
  std::size_t above(std::size_t event, std::uint32_t known) const {
    return event != none && positions_[event] > known ? event : none;
  }

  const std::vector<std::uint32_t>& positions_;
  ObjectTable<std::vector<Lists>> objects_;  // by object, then by chain
  std::vector<Undo> filed_;                  // every filing, in run order
  const Footprint* queried_ = nullptr;       // the footprint of the last query, and
  std::vector<std::uint32_t> looked_up_;     // its touches' objects' indices in objects_
};

}  // namespace weft::scheduler
