#pragma once
// Whether a race can be reversed when its second transition blocks.
//
// A wait is enabled only when its cell holds enough; a signal that enables it is dependent with
// it (an add against a take), so it happens before the wait. Reversing such a race (signal,
// wait) means running the wait before the signal, which is possible only if the cell holds
// enough without it. The count at that point is every add and take of the cell before the first
// event of the race, plus those of the reversal's other transitions. A race whose reversal would
// block is dropped, so every sequence put into a wakeup tree can run and no run is blocked by a
// semaphore.

#include <cstddef>
#include <span>

#include "scheduler/strategies/dependence.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"

namespace weft::scheduler {

// Whether e_j, run in the reversal `v` of the race (e_i, e_j) (v ends with e_j), finds every
// counter it takes from large enough.
bool reversible(std::span<const Event> run, std::size_t i, const Sequence& v, std::size_t j);

}  // namespace weft::scheduler
