#pragma once
// Race detection: exact happens-before over cores and DMAs (docs/semantics.md §5).
//
// What. Every core is an actor with its own vector-clock slot, and so is every DMA while it runs
// (model/clock_slots.hpp numbers the slots, a ring's adjacent): no DMA is folded onto another
// actor's entry and no ordering is invented. DMA slots are *lanes* (after the cores), recycled so
// that a ring of 1,024 cores needs a few thousand slots, not one per DMA. A lane is a sequence of
// DMAs totally ordered by happens-before, so an epoch on it means what it does on a core: a lane
// goes back to the core that acquires the final signal of its DMA (the write phase's receive
// signal), which then knows every event of the lane; that core's next DMA may continue the lane, at
// a later value, and whoever learns of the new DMA's events learns, through its start, of all the
// lane's earlier ones. A DMA whose final signal nobody waits for keeps its lane.
//
// Edges. Program order: an actor's own entry. A release (a signal, a DMA start, a DMA
// phase's signal) ticks the releaser's entry afterwards, so its later events are not ordered
// before the acquirer. `dma_start` gives the DMA the starter's clock; the read phase precedes
// the write phase in the DMA's own order, and each phase's signal carries the DMA's clock. A
// wait acquires, in `precise` mode, the clocks of exactly the signal units it consumes (each
// cell keeps a FIFO of (units, clock), consumed in signal order, a partly consumed signal
// keeping its clock for the rest; the clock is an index into a table of the clocks pending
// signals hold, model/clock_snapshots.hpp, so a ring's many cells keep 16 bytes a signal); in
// `accumulate` mode (the reference's) a cell's clock only grows and a wait acquires all of it.
// Launch: host setup precedes every kernel event (host accesses are not recorded), and every
// core starts from the zero clock.
//
// Clocks. `Clock` is model/vector_clock.hpp's dense one (the default) or model/tree_clock.hpp's
// (model/races.hpp chooses; both give the same races and reports, byte for
// byte: tests/explain/clock_kinds_differential_test.cpp). Either is shared: a signal in precise
// mode keeps the releaser's clock without copying it, and the tick that follows writes the
// releaser's own entry. A DMA start continues the DMA's lane from its starter's clock (a copy
// for dense clocks, a join for tree clocks: the lane knows nothing its starter does not). A
// wait joins: a pass over the other clock's non-zero 64-slot blocks for dense clocks (unless the
// two share their storage; a ring's slots share blocks, model/clock_slots.hpp), the entries that
// change plus one per visited node's children for tree clocks. That is the term
// that grows with the core count (docs/performance.md measures it); an access costs an epoch
// comparison per overlapping record (FastTrack), found through a row index
// (model/access_history.hpp).
//
// Shadow state. Granularity is the rectangle as the kernel issued it, not the element: each
// buffer keeps its access records (model/access_history.hpp). A new access is checked only
// against overlapping records with at least one write among the pair; the check is one epoch
// comparison. The records stay few because a new access retires every record it covers whose
// epoch it knows, when the new access is a write or the old record a read. That loses no race:
// a later access X that would race with the retired R is not ordered after R, so (being later
// in the execution) not after the new access A either, and it overlaps A because A covers R; if
// A is a write X races with A, and if R and A are reads then X (racing with a read) is a write
// and races with A. The first race is reported exactly; with `keep_going`, a later race may be
// reported against the access that retired the earlier partner.
//
// Fast paths (FastTrack's same-epoch case, Flanagan and Freund, PLDI 2009, for rectangles):
// a kernel re-reading what it just stored, or storing the same tile again. Both apply when the
// buffer's latest record R is the accessing actor's and R's sweep kept no other record
// overlapping it (R was filed *alone*), since then an access inside R's rectangle would meet
// only R in its own sweep.
// - Same rectangle: an access to exactly R's rectangle, at R's epoch or a later one of the
//   actor (which knows R by program order), and a write or R a read, would find no race and
//   retire R: R becomes it in place (epoch, kind, line, step), still alone, which is where its
//   record would have gone.
// - Same epoch: any other access at R's epoch, inside R, and a read or R a write, adds no
//   record. Its check would find no race (R found none, else the run stopped, and the actor
//   knows at least what it knew then), and it would not retire R (it does not cover R, or it is
//   a read of R's rectangle where R is a write). Its record would have come after R and inside
//   it, and every later access that races with it races with R first in the sweep (same epoch,
//   R no weaker), and retires it whenever it retires R.
// So the first race reported is the same (tests/model/race_fast_paths_differential_test.cpp).
// Neither applies with keep_going, where each pair of source lines is its own report.

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/access.hpp"
#include "model/access_history.hpp"
#include "model/barrier_clocks.hpp"
#include "model/clock_slots.hpp"
#include "model/clock_snapshots.hpp"
#include "model/line_table.hpp"
#include "model/topology.hpp"
#include "model/unit_fifo.hpp"
#include "model/tree_clock.hpp"
#include "model/vector_clock.hpp"

namespace weft::model {

enum class SemaphoreClocks { precise, accumulate };

template <class Clock>
class RaceDetector {
 public:
  RaceDetector(const Topology& topology, SemaphoreClocks mode, bool keep_going);
  RaceDetector(const RaceDetector&) = delete;  // its clocks point at its arena
  RaceDetector& operator=(const RaceDetector&) = delete;

  // --- synchronisation ---
  // `final` marks a DMA's last event (its write phase's signal): whoever acquires it may reuse
  // the DMA's lane.
  void signal(Accessor by, int semaphore, int global_core, std::int64_t amount, bool final = false);
  void consume(int global_core, int semaphore, std::int64_t amount);
  void dma_started(int global_core, int dma_id);
  // The device barrier (model/barrier_clocks.hpp): an arrival releases, a departure acquires.
  void barrier_arrive(int global_core) {
    barriers_.arrive(global_core, clocks_[static_cast<std::size_t>(global_core)]);
    clocks_[static_cast<std::size_t>(global_core)].tick(slots_.core(global_core));
  }
  void barrier_leave(int global_core) { barriers_.leave(global_core, clocks_[static_cast<std::size_t>(global_core)]); }

  // --- accesses ---
  // Records an access; on a race fills `failure` and returns false, unless keep_going, where
  // it keeps the report (one per pair of source lines and buffer) and returns true.
  // `describe_actor` names an accessor for reports.
  template <class Describe>
  bool access(const Access& access, std::uint64_t step, Describe describe_actor, Failure& failure);

  const std::vector<std::string>& reports() const { return reports_; }
  const std::vector<FailureSite>& sites() const { return sites_; }  // keep_going: both accesses of each race

 private:
  using Record = AccessHistory::Record;
  // An earlier access as its record says, unpacked for a report.
  struct Earlier {
    Rect rect;
    bool is_write = false;
    Accessor who;
    SourceLine line;
    std::uint64_t step = 0;
  };
  struct Release {
    int clock = -1;  // the releaser's, shared, in snapshots_
    int lane = -1;   // the lane its acquirer may continue (a DMA's final signal), else -1
  };
  // A semaphore cell's clocks, in the mode's own table (a ring keeps a cell per step and core:
  // the precise mode's cells hold no clock of their own).
  struct Cell {  // precise
    UnitFifo<Release> pending;
  };
  struct AccumulatedCell {  // accumulate
    explicit AccumulatedCell(typename Clock::Arena& arena) : accumulated(arena) {}
    Clock accumulated;
    std::vector<int> lanes;  // lanes whose final signal it holds
  };

  // Where `who`'s clock is in clocks_.
  std::size_t actor(Accessor who) const {
    return who.kind == Accessor::Kind::core
               ? static_cast<std::size_t>(who.index)
               : static_cast<std::size_t>(cores_) + static_cast<std::size_t>(lane_of_[who.index]);
  }
  // `who`'s own entry in every clock.
  std::size_t slot(Accessor who) const { return actor_slots_[actor(who)]; }
  Clock& clock(Accessor who) { return clocks_[actor(who)]; }
  // The cell (semaphore, global_core) of `table`, whose row is made whole of `fresh()` on first use.
  template <class Kind, class Fresh>
  Kind& cell(std::vector<std::vector<Kind>>& table, int semaphore, int global_core, Fresh fresh);
  auto fresh_accumulated() {
    return [this] { return AccumulatedCell(arena_); };
  }
  AccessHistory& history(const Buffer& buffer) {
    const auto serial = static_cast<std::size_t>(buffer.serial);
    if (serial < histories_.size() && histories_[serial]) return *histories_[serial];
    return new_history(buffer);
  }
  AccessHistory& new_history(const Buffer& buffer);
  // A lane `global_core` knows every event of, or a new one.
  int take_lane(int global_core);
  // The race report, or nothing if this pair of lines and buffer was reported before.
  std::optional<std::string> report(const Access& access, std::uint64_t step, const Earlier& earlier,
                                    const std::string& later_actor, const std::string& earlier_actor);

  // The two accesses of a race, earlier first, for timelines.
  static std::vector<FailureSite> sites(const Access& access, std::uint64_t step, const Earlier& earlier);

  int cores_;
  SemaphoreClocks mode_;
  bool keep_going_;
  typename Clock::Arena arena_;  // the storage of every clock below: declared first
  ClockSlots slots_;
  std::vector<Clock> clocks_;                                    // per actor: cores, then lanes
  std::vector<std::uint32_t> actor_slots_;                       // per actor: its slot
  std::vector<int> lane_of_;                                     // per DMA id
  std::vector<std::vector<int>> free_lanes_;                     // per global core: lanes it may continue
  std::vector<std::vector<Cell>> cells_;                         // [semaphore index][global core], precise
  ClockSnapshots<Clock> snapshots_;                              // the clocks of the precise cells' signals
  std::vector<std::vector<AccumulatedCell>> accumulated_cells_;  // the same, accumulate
  BarrierClocks<Clock> barriers_;
  std::vector<std::unique_ptr<AccessHistory>> histories_;  // per buffer serial
  LineTable lines_;                                        // the lines the records' line indices name
  std::set<std::string> reported_;                         // pairs of source lines and buffer
  std::vector<std::string> reports_;
  std::vector<FailureSite> sites_;
};

template <class Clock>
template <class Describe>
bool RaceDetector<Clock>::access(const Access& access, std::uint64_t step, Describe describe_actor, Failure& failure) {
  const Clock& now = clock(access.who);
  AccessHistory& records = history(*access.buffer);
  const Epoch epoch = now.epoch(slot(access.who));
  Record* latest = keep_going_ ? nullptr : records.latest_alone();
  if (latest != nullptr && latest->who() == access.who) {
    const Rect latest_rect = records.rect_of(*latest);
    if ((access.is_write || !latest->is_write()) && latest_rect == access.rect && now.knows(latest->epoch())) {
      latest->stamp(epoch, access.is_write, access.who, lines_.index(access.line), step);  // same rectangle
      return true;
    }
    if (latest->epoch() == epoch && (latest->is_write() || !access.is_write) && access.rect.inside_of(latest_rect))
      return true;  // same epoch
  }
  bool stop = false;
  bool alone = true;  // no record kept that overlaps the access
  // One pass: each candidate is checked against the access, then retired if the access covers it
  // (see "Shadow state" above; the retired set does not depend on what the checks found).
  records.sweep(access.rect, [&](const Record& record, const Rect& rect) {
    if (stop) return false;
    const bool known = now.knows(record.epoch());
    if (!known && (record.is_write() || access.is_write) && rect.overlaps(access.rect)) {
      alone = false;
      const Earlier earlier{rect, record.is_write(), record.who(), lines_.at(record.line()), record.step()};
      auto text = report(access, step, earlier, describe_actor(access.who), describe_actor(earlier.who));
      if (!text) return false;
      std::vector<FailureSite> pair = sites(access, step, earlier);
      if (!keep_going_) {
        failure = {Verdict::data_race, *text, std::move(pair)};
        stop = true;
        return false;
      }
      reports_.push_back(std::move(*text));
      sites_.insert(sites_.end(), pair.begin(), pair.end());
      return false;
    }
    const bool retired = known && (access.is_write || !record.is_write()) && rect.inside_of(access.rect);
    if (!retired && rect.overlaps(access.rect)) alone = false;
    return retired;
  });
  if (stop) return false;
  const std::uint32_t line = lines_.index(access.line);
  records.add(
      access.rect, [&](Record& record) { record.stamp(epoch, access.is_write, access.who, line, step); }, alone);
  return true;
}

}  // namespace weft::model
