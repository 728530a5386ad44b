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
// `conflicts(j)` are the dependent predecessors of e_j of other processes (but the event that
// created e_j's DMA): the candidates of the races e_i ≲ e_j that the explorer reverses.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/strategies/dependence.hpp"

namespace weft::scheduler {

class HappensBefore {
 public:
  explicit HappensBefore(std::span<const Event> run);

  // Whether e_i happens before e_k (i < k), or is e_k.
  bool before(std::size_t i, std::size_t k) const { return clock_[k][process_[i]] >= position_[i]; }
  // The direct predecessors of e_j, and those of them that are dependent transitions of other
  // processes.
  const std::vector<std::size_t>& direct(std::size_t j) const { return direct_[j]; }
  const std::vector<std::size_t>& conflicts(std::size_t j) const { return conflicts_[j]; }
  std::size_t processes() const { return processes_; }

 private:
  std::vector<std::size_t> process_, position_;
  std::vector<std::vector<std::uint32_t>> clock_;
  std::vector<std::vector<std::size_t>> direct_, conflicts_;
  std::size_t processes_ = 0;
};

}  // namespace weft::scheduler
