#pragma once
// One exploration shared by processes (ranks: weft-mpi's MPI ranks), as explore_in_parallel
// shares one among threads: rank 0 owns the tree (scheduler/strategies/shared_wakeup_tree.hpp)
// and runs claims of its own; every other rank is a helper that asks it for a claim, runs it on
// its own simulation, analyses its races and sends back the run (explore_messages.hpp). The
// owner makes every call into the tree, one at a time, as the threads' lock does: it rebuilds
// the reversals the helper kept from the run's events and the helper's happens-before clocks
// (the helper names each reversal by its two events), puts the run's states and reversals in,
// and hands the helper its next claim, near its last run as a thread's is.
//
// So the guarantees are explore_in_parallel's (explore.hpp): exhausted, the same complete runs
// and verdicts as one thread, each failure represented by the run with the least schedule (the
// owner replays a helper's run to keep it: a run is deterministic); a failure found by any rank
// stops every rank after the run in hand (the runs that end after it are not counted); a stop
// flag raised on the owner or a helper stops all. Under --max-executions, which runs ran
// depends on timing. All ranks must explore the same request: only the owner's report counts.

#include <cstdint>

#include "sim/engine/explore.hpp"
#include "sim/engine/rank_transport.hpp"

namespace weft::sim {

// What the owner spent on the tree for the helpers: the cost of a claimed run there bounds how
// many helpers one owner can feed.
struct OwnerFigures {
  int ranks = 1;
  std::uint64_t helper_runs = 0;  // runs of other ranks put into the tree
  double tree_seconds = 0;  // processor time decoding, rebuilding reversals, inserting, claiming and encoding for them
};

// On rank 0. Throws what explore_in_parallel throws, and std::runtime_error naming the rank
// when a helper failed (its exception's text).
ExploreReport explore_over_ranks(Simulation& simulation, RankTransport& transport,
                                 const scheduler::ExploreOptions& options, bool keep_going,
                                 const ExploreWatch& watch = {}, OwnerFigures* figures = nullptr);

// On every other rank: runs what rank 0 hands out until it says stop. Its own failures go to rank
// 0 (which reports them), and it waits to be stopped.
void help_explore(Simulation& simulation, RankTransport& transport, const ExploreWatch& watch = {});

}  // namespace weft::sim
