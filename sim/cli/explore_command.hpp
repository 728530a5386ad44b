#pragma once
// `weft explore SCENARIO [--max-executions N] [--preemption-bound K] [--keep-going] [--jobs N]
// [--jsonl F] [--junit F] [--trace F.json] [--html F.html] [--trace-text F]`: every interleaving
// of the scenario up to equivalence, what each verdict looked like, each failure's JSON line and
// JUnit testcase for CI (explore_output.hpp), and the first failure as a trace.
//
// Exit status: 0 when the scenario expects ok and every run was ok, or expects a failure and
// that failure was found with no other; 1 otherwise (including an expected failure that no
// interleaving produced, when the space was exhausted or cut short by a bound the user gave).
// Stopped before its end by SIGINT, SIGTERM or the memory budget (memory.host_bytes), it prints
// what it found so far and exits 1 if that holds an unexpected verdict, else 4 (not done:
// exit_status.hpp).
//
// On a terminal, a progress line on stderr (explore_progress.hpp).
//
// With `ranks` (weft-mpi), the processes share one exploration (sim/engine/explore_over_ranks.hpp):
// rank 0 explores and reports as above, every other rank only helps it and prints nothing
// (status 0). Each rank refuses --jobs above 1 the same way, before any of them starts.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/engine/rank_transport.hpp"
#include "sim/request/request.hpp"
#include "sim/cli/trace_output.hpp"

namespace weft::sim {

struct ExploreArguments {
  std::uint64_t max_executions = 0;  // 0: no bound
  std::optional<int> preemption_bound;
  bool keep_going = false;
  int jobs = 1;  // more than 1: explore_in_parallel (no preemption bound)
  const std::atomic<bool>* interrupted = nullptr;  // raised by SIGINT, SIGTERM, SIGHUP or a closed stdout (interrupt.hpp)
  std::optional<std::string> jsonl;  // --jsonl F
  std::optional<std::string> junit;  // --junit F
  RankTransport* ranks = nullptr;    // weft-mpi's: the exploration is shared by processes
};

// With trace files asked for, the first failure found is replayed with a recorder attached.
int command_explore(const Request& request, const std::string& program, const ExploreArguments& arguments,
                    const TraceFiles& traces);

}  // namespace weft::sim
