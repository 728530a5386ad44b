#pragma once
// Happens-before over one complete run, for the explorer's race analysis.
//
// e_i happens before e_k when a chain of direct edges leads from one to the other. The direct
// edges into e_j: the previous transition of its process (program order), the core transition
// that created its DMA (for the first phase of a DMA), and every earlier transition of another
// process that is dependent with it (dependence in run order, Mazurkiewicz). Each transition
// gets a vector clock, the join of its direct predecessors' clocks plus its own position, so
// `before(i, k)` is one comparison (Abdulla et al., "Optimal Dynamic Partial Order Reduction",
// POPL 2014, section 3; Mattern's vector clocks).
//
// Clocks over chains, not processes. A vector clock needs one entry per *chain*: a set of
// transitions totally ordered by happens-before, numbered in that order (e_k's entry for a
// chain is the position of the latest of its transitions that happens before e_k; everything
// earlier in the chain does too). A core is one chain. A DMA is a process of its own (its
// phases), and a run starts a DMA every few steps, so clocks over processes were as wide as
// the run was long: a run of n steps cost n times n of clock, and explore's cost per step grew
// with the run's length. A DMA's phases therefore go on a *lane*, a chain shared by DMAs one
// after another: a DMA's first phase takes the lowest-numbered lane whose DMA has run its last
// phase in the run and whose latest transition happens before this phase (typically a wait on
// that DMA's semaphore, then the start of the next), else a new lane. So a lane is totally
// ordered, and there are about as many lanes as DMAs in flight at once. A transition left
// enabled at the run's end (below) never takes a lane over.
//
// Not every dependent predecessor is looked for. Of a chain's transitions dependent with e_j,
// all but the latest happen before that one, and those that already happen before e_j through
// program order or creation add nothing to its clock and are no race of it. So for each other
// chain only its latest transition dependent with e_j is looked for, among those not yet known
// to happen before e_j, and it is found through the objects e_j touches (touch_index.hpp), not
// by walking the chain: two cores that never synchronise would walk each other's whole past at
// every transition. The plain construction, every earlier transition tested against e_j, is
// quadratic in the run's length; both give the same order and the same races, and the plain one
// is kept as the reference of tests/scheduler/happens_before_differential_test.cpp. (A
// dependent transition of an earlier DMA on a lane happens before the later ones of the lane,
// so when a later one is found it is no race: the races per process and per lane are the same.)
//
// The transitions from `ran` on never ran: they were left enabled where the run stopped
// (race_analysis.hpp), each one of the ways it could have gone on. Each is ordered after the
// transitions that ran, never after another left one: as if it came right after the run.
//
// `races(j)` are those dependent predecessors of e_j (of other processes, not the creator of
// e_j's DMA) that happen before none of e_j's other direct predecessors: the races e_i ≲ e_j
// that the explorer reverses, in run order.
//
// Cost: the run's length times the chains, in time and in memory (one 32-bit entry per chain
// begun by then, per transition), plus the search for each transition's dependent ones, which
// looks only at transitions of other chains that touched its objects (touch_index.hpp). The
// explorer grows each run's order from the last one's over the events they share
// (growing_order.hpp, which makes this one's too).

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

  // The order as another process receives it (sim/engine/explore_messages.hpp): what `before`
  // reads, for the run's transitions; races() stay with the analysis that found them. Well
  // formed: chain and position hold a value per transition, rows one more, rows[0] is 0, they
  // never decrease, and the last is clock's size.
  struct Clocks {
    std::vector<std::uint32_t> chain, position, clock;
    std::vector<std::size_t> rows;
  };
  // From clocks() of an order of the same run: the same `before`, and no races. Throws
  // std::logic_error when `clocks` are not well formed.
  explicit HappensBefore(Clocks clocks);
  Clocks clocks() const { return {chain_, position_, clock_, rows_}; }

  // Whether e_i happens before e_k (i < k), or is e_k.
  bool before(std::size_t i, std::size_t k) const {
    // A chain begun after e_k has nothing before it: e_k's row stops short of it.
    return rows_[k] + chain_[i] < rows_[k + 1] && clock_[rows_[k] + chain_[i]] >= position_[i];
  }
  // Appends to `out`, in run order, the transitions e_k with i < k < end that e_i does not
  // happen before (notdep(e_i) in Optimal-DPOR, cut at `end`). A chain's transitions after the
  // first that e_i happens before all follow it, so each chain is cut by a search outward from
  // e_i: the cost is the chains' count times the logarithm of how far each chain's cut is from
  // e_i, plus what is appended, not the rest of the run.
  void not_after(std::size_t i, std::size_t end, std::vector<std::size_t>& out) const;
  std::span<const std::size_t> races(std::size_t j) const {
    return std::span<const std::size_t>(races_).subspan(races_start_[j], races_start_[j + 1] - races_start_[j]);
  }
  // The clocks' width: a chain per core, and the DMAs' lanes.
  std::size_t chains() const { return chains_; }
  // The heap bytes it holds (scheduler/strategies/held_bytes.hpp).
  std::size_t memory_bytes() const;

 private:
  std::vector<std::uint32_t> chain_, position_;   // e_j's chain, and its position there (from 1)
  std::vector<std::uint32_t> clock_;              // row k: e_k's clock, one entry per chain begun by then
  std::vector<std::size_t> rows_;                 // row k: clock_[rows_[k] .. rows_[k + 1])
  std::vector<std::size_t> races_, races_start_;  // races(j): races_[races_start_[j] .. races_start_[j + 1])
  // Each chain's transitions in run order: by_chain_[chain_start_[c] .. chain_start_[c + 1]).
  std::vector<std::size_t> by_chain_, chain_start_;
  std::size_t chains_ = 0;

  friend class GrowingOrder;  // makes it
  HappensBefore() = default;
  void index_chains();  // by_chain_ and chain_start_ from chain_
};

}  // namespace weft::scheduler
