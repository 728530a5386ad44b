#pragma once
// Happens-before over one complete run, for the explorer's race analysis.
//
// e_i happens before e_k when a chain of direct edges leads from one to the other. The direct
// edges into e_j: the previous transition of its process (program order), the core transition
// that created its DMA (for the first phase of a DMA), and every earlier transition of another
// process that is dependent with it (dependence in run order, Mazurkiewicz). Each transition
// gets a vector clock over processes, the join of its direct predecessors' clocks plus its own
// position in its process, so `before(i, k)` is one comparison (Abdulla et al., "Optimal Dynamic
// Partial Order Reduction", POPL 2014, section 3; Mattern's vector clocks).
//
// Not every dependent predecessor is looked for. Of a process's transitions dependent with e_j,
// all but the latest happen before that one, and those that already happen before e_j through
// program order or creation add nothing to its clock and are no race of it. So for each other
// process, its transitions are walked back from its latest only while they are not yet known to
// happen before e_j, and the walk stops at the first dependent one. The plain construction,
// every earlier transition tested against e_j, made the analysis quadratic in the run's length
// (explore's cost per step grew with the run); this one tests only the transitions concurrent
// with e_j's program-order past. Both give the same clocks and the same races: the plain one is
// kept as the reference of tests/scheduler/happens_before_differential_test.cpp.
//
// The transitions from `ran` on never ran: they were left enabled where the run stopped
// (race_analysis.hpp), each one of the ways it could have gone on. Each is ordered after the
// transitions that ran, never after another left one: as if it came right after the run.
//
// `races(j)` are those dependent predecessors of e_j (of other processes, not the creator of
// e_j's DMA) that happen before none of e_j's other direct predecessors: the races e_i ≲ e_j
// that the explorer reverses, in run order.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/strategies/dependence.hpp"

namespace weft::scheduler {

class HappensBefore {
 public:
  explicit HappensBefore(std::span<const Event> run) : HappensBefore(run, run.size()) {}
  HappensBefore(std::span<const Event> run, std::size_t ran);

  // Whether e_i happens before e_k (i < k), or is e_k.
  bool before(std::size_t i, std::size_t k) const { return clock_[k * processes_ + process_[i]] >= position_[i]; }
  std::span<const std::size_t> races(std::size_t j) const {
    return std::span<const std::size_t>(races_).subspan(races_start_[j], races_start_[j + 1] - races_start_[j]);
  }
  std::size_t processes() const { return processes_; }

 private:
  std::vector<std::size_t> process_, position_;
  std::vector<std::uint32_t> clock_;  // row k: e_k's clock, one entry per process
  std::vector<std::size_t> races_, races_start_;  // races(j): races_[races_start_[j] .. races_start_[j + 1])
  std::size_t processes_ = 0;
};

}  // namespace weft::scheduler
