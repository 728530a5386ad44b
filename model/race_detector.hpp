#pragma once
// Race detection: exact happens-before over cores and DMAs (semantics.md §5).
//
// What. Every core and every DMA is an actor with its own vector-clock slot (cores 0..N-1,
// DMA d at N + d), so a DMA is never folded onto another actor's entry and no ordering is
// invented. Slots of finished DMAs are not recycled: a slot is an index, and entries are
// 32-bit counters, so the cost is one word per DMA per clock that has heard of it.
//
// Edges. Program order: an actor's own entry. A release (a signal, a DMA start, a DMA
// phase's signal) ticks the releaser's entry afterwards, so its later events are not ordered
// before the acquirer. `dma_start` gives the DMA the starter's clock; the read phase precedes
// the write phase in the DMA's own order, and each phase's signal carries the DMA's clock. A
// wait acquires, in `precise` mode, the clocks of exactly the signal units it consumes (each
// cell keeps a FIFO of (units, clock), consumed in signal order, a partly consumed signal
// keeping its clock for the rest); in `accumulate` mode (the reference's) a cell's clock only
// grows and a wait acquires all of it. Launch: host setup precedes every kernel event (host
// accesses are not recorded), and every core starts from the zero clock.
//
// Shadow state. Granularity is the rectangle as the kernel issued it, not the element: each
// buffer keeps a list of access records (rectangle, read or write, the actor's epoch, source
// line, step). A new access is checked only against overlapping records with at least one
// write among the pair; the check is one epoch comparison (FastTrack). The list stays short
// because a new access retires every record it covers whose epoch it knows, when the new
// access is a write or the old record a read. That loses no race: a later access X that would
// race with the retired R is not ordered after R, so (being later in the execution) not after
// the new access A either, and it overlaps A because A covers R; if A is a write X races with A,
// and if R and A are reads then X (racing with a read) is a write and races with A. The first
// race is reported exactly; with `keep_going`, a later race may be reported against the access
// that retired the earlier partner.

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/access.hpp"
#include "model/topology.hpp"
#include "model/vector_clock.hpp"

namespace weft::model {

enum class SemaphoreClocks { precise, accumulate };

class RaceDetector {
 public:
  RaceDetector(const Topology& topology, SemaphoreClocks mode, bool keep_going);

  // --- synchronisation ---
  void signal(Accessor by, int semaphore, int global_core, std::int64_t amount);
  void consume(int global_core, int semaphore, std::int64_t amount);
  void dma_started(int global_core, int dma_id);

  // --- accesses ---
  // Records an access; on a race fills `failure` and returns false, unless keep_going, where
  // it keeps the report (one per pair of source lines and buffer) and returns true.
  // `describe_actor` names an accessor for reports.
  template <class Describe>
  bool access(const Access& access, std::uint64_t step, Describe describe_actor, Failure& failure);

  const std::vector<std::string>& reports() const { return reports_; }
  const std::vector<FailureSite>& sites() const { return sites_; }  // keep_going: both accesses of each race

 private:
  struct Record {
    Rect rect;
    Epoch epoch;
    bool is_write;
    Accessor who;
    SourceLine line;
    std::uint64_t step;
  };
  struct SignalUnits {
    std::int64_t units;
    VectorClock clock;
  };
  struct Cell {
    std::deque<SignalUnits> pending;  // precise
    VectorClock accumulated;          // accumulate
  };

  std::size_t slot(Accessor who) const {
    return who.kind == Accessor::Kind::core ? static_cast<std::size_t>(who.index)
                                            : static_cast<std::size_t>(cores_ + who.index);
  }
  VectorClock& clock(Accessor who);
  Cell& cell(int semaphore, int global_core);
  std::vector<Record>& records(const Buffer& buffer);
  // The race report, or nothing if this pair of lines and buffer was reported before.
  std::optional<std::string> report(const Access& access, std::uint64_t step, const Record& earlier,
                                    const std::string& later_actor, const std::string& earlier_actor);

  // The two accesses of a race, earlier first, for timelines.
  static std::vector<FailureSite> sites(const Access& access, std::uint64_t step, const Record& earlier);

  int cores_;
  SemaphoreClocks mode_;
  bool keep_going_;
  std::vector<VectorClock> clocks_;             // per slot
  std::vector<std::vector<Cell>> cells_;        // [semaphore index][global core]
  std::vector<std::vector<Record>> records_;    // per buffer serial
  std::set<std::string> reported_;              // pairs of source lines and buffer
  std::vector<std::string> reports_;
  std::vector<FailureSite> sites_;
};

template <class Describe>
bool RaceDetector::access(const Access& access, std::uint64_t step, Describe describe_actor, Failure& failure) {
  const VectorClock& now = clock(access.who);
  std::vector<Record>& list = records(*access.buffer);
  for (const Record& earlier : list) {
    if (!(earlier.is_write || access.is_write) || now.knows(earlier.epoch) || !earlier.rect.overlaps(access.rect))
      continue;
    auto text = report(access, step, earlier, describe_actor(access.who), describe_actor(earlier.who));
    if (!text) continue;
    std::vector<FailureSite> pair = sites(access, step, earlier);
    if (!keep_going_) {
      failure = {Verdict::data_race, *text, std::move(pair)};
      return false;
    }
    reports_.push_back(std::move(*text));
    sites_.insert(sites_.end(), pair.begin(), pair.end());
  }
  const Epoch epoch = now.epoch(slot(access.who));
  std::erase_if(list, [&](const Record& old) {
    return (access.is_write || !old.is_write) && now.knows(old.epoch) && old.rect.inside_of(access.rect);
  });
  list.push_back({access.rect, epoch, access.is_write, access.who, access.line, step});
  return true;
}

}  // namespace weft::model
