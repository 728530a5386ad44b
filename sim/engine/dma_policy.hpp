#pragma once
// The DMA execution policy (dma.execution, docs/semantics.md §4): when the phases of a started
// DMA run, in one place.
//
//   eager     both phases run inside the start, on the starter's step (the engine runs them
//             there: `eager()`); no DMA is ever in flight between two steps
//   async     each phase is an actor of its own, enabled from the DMA's start until it has run
//   on_wait   a phase is enabled only while a core is blocked on a cell it fills (a read phase
//             also while a core is blocked on its write phase's cell, which cannot fill before
//             it); the enabled phases are recomputed at every step (`rebuilds()`)
//
// Under the jax compat profile (model/compat.hpp, on_wait_newest_only), on_wait runs for each
// blocked cell only the newest DMA that fills it, as the reference interpreter does.
//
// Invariant: in_flight() holds the ids of the started, unfinished DMAs of a non-eager policy,
// ascending (ids grow with every start).

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "model/compat.hpp"
#include "model/machine_spec.hpp"

namespace weft::sim {

// A cell (semaphore index, global core) a blocked core waits on.
using Cell = std::pair<int, int>;

class DmaPolicy {
 public:
  explicit DmaPolicy(const model::MachineSpec& spec)
      : mode_(spec.dma_execution), newest_only_(model::quirks_of(spec.compat).on_wait_newest_only) {}

  bool eager() const { return mode_ == model::DmaExecution::eager; }
  bool rebuilds() const { return mode_ == model::DmaExecution::on_wait; }

  // A DMA of a non-eager policy started: it is in flight.
  void started(int dma) { in_flight_.push_back(dma); }
  // It finished (its last phase ran, or a phase failed).
  void finished(int dma) { in_flight_.erase(std::lower_bound(in_flight_.begin(), in_flight_.end(), dma)); }
  const std::vector<int>& in_flight() const { return in_flight_; }

  // on_wait: calls enable(dma) for each DMA whose next phase runs now, ascending.
  // `needed_by(dma)` is the blocked cell that needs the DMA's next phase, if any.
  template <class NeededBy, class Enable>
  void on_wait_phases(const NeededBy& needed_by, const Enable& enable) {
    if (!newest_only_) {
      for (int id : in_flight_)
        if (needed_by(id)) enable(id);
      return;
    }
    served_.clear();
    chosen_.clear();
    for (auto id = in_flight_.rbegin(); id != in_flight_.rend(); ++id) {
      const std::optional<Cell> cell = needed_by(*id);
      if (!cell || std::find(served_.begin(), served_.end(), *cell) != served_.end()) continue;
      served_.push_back(*cell);
      chosen_.push_back(*id);
    }
    for (auto id = chosen_.rbegin(); id != chosen_.rend(); ++id) enable(*id);
  }

 private:
  model::DmaExecution mode_;
  bool newest_only_;
  std::vector<int> in_flight_;
  // newest_only: the cells served and the DMAs chosen this step (kept for their capacity)
  std::vector<Cell> served_;
  std::vector<int> chosen_;
};

}  // namespace weft::sim
