#pragma once
// `weft explore SCENARIO [--max-executions N] [--preemption-bound K] [--keep-going] [--jobs N]
// [--checkpoint F] [--resume F] [--jsonl F] [--junit F] [--trace F.json] [--html F.html] [--trace-text F]`: every
// interleaving of the scenario up to equivalence, what each verdict looked like, each failure's JSON line and JUnit
// testcase for CI (explore_output.hpp), and the first failure as a trace.
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
// With --checkpoint F, the exploration's state is saved to F every few seconds and when it
// stops; --resume F goes on from it, refused (status 2, naming the file and what differs) when
// F is not a whole checkpoint of this scenario, configuration, options and weft version. Both
// need one job (--jobs 1, not weft-mpi): refused otherwise (status 2).
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
  const std::atomic<bool>* interrupted =
      nullptr;                            // raised by SIGINT, SIGTERM, SIGHUP or a closed stdout (interrupt.hpp)
  std::optional<std::string> jsonl;       // --jsonl F
  std::optional<std::string> junit;       // --junit F
  RankTransport* ranks = nullptr;         // weft-mpi's: the exploration is shared by processes
  std::optional<std::string> checkpoint;  // --checkpoint F: save the state to F (one job only)
  std::optional<std::string> resume;      // --resume F: go on from F (and save to it, unless --checkpoint)
  double checkpoint_every = 5;            // --checkpoint-every S: seconds between saves (0: after every run)
};

// With trace files asked for, the first failure found is replayed with a recorder attached.
int command_explore(const Request& request, const std::string& program, const ExploreArguments& arguments,
                    const TraceFiles& traces);

}  // namespace weft::sim
