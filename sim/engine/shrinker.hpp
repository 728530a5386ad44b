#pragma once
// Schedule shrinking: given a failing execution, search for a simpler schedule with the same
// verdict, within a bounded number of re-executions.
//
// What it minimises. First the number of preemptions (steps that switch away from an actor that
// could have gone on), then the number of steps. Preemptions are what a reader has to follow
// to understand a concurrency bug: a schedule with one or two of them reads as a story ("device
// 0 runs until it stores the flag, then core 1 runs to its check"), one with thirty does not.
// The order is lexicographic: a candidate is accepted only when it keeps the verdict and has
// fewer preemptions, or as many and fewer steps, and its string has no more runs (the "actor:N"
// groups a person reads). So the preemptions and the schedule string never grow (the step count
// may, when fewer preemptions take more steps), and since every acceptance strictly decreases
// the pair, the search terminates even without its budget.
//
// The moves work on the schedule's run-length segments (actor, count), the ":N" groups of its
// string form:
//   - truncate the tail: keep only the first 0, 1, 2, 4, ... segments (zero segments is the
//     execution with no preemptions at all, the best possible answer, so it is tried first);
//   - delete chunks of segments, delta-debugging style (ddmin, Zeller and Hildebrandt, "Simplifying
//     and Isolating Failure-Inducing Input", TSE 2002): the halves, then quarters, ... down to
//     single segments, back to coarser chunks after each success;
//   - shorten a segment: drop half of its steps, else one step.
// The moves repeat, in that order, until a whole round accepts nothing or the budget is spent.
//
// Why the result replays exactly. An edited schedule rarely fits the execution (an actor it names
// may be blocked at its step), so each candidate runs under a lenient replay
// (scheduler/strategies/lenient_replay.hpp), which substitutes an enabled actor instead of giving up and
// lets the last actor go on past the end, adding no preemptions of its own. What is accepted is
// not the candidate but the schedule the step loop *recorded* for that run: every pick in it was
// enabled at its step, execution is deterministic given the picks, and the run ended at its last
// pick. A strict ReplayStrategy (`weft replay --schedule`, Simulation::run_schedule) therefore
// takes the same actors, reaches the same states and the same verdict, and never needs its
// past-the-end rule. The preemption count is the lenient strategy's count for that same run, so
// it is the count of the recorded schedule.
//
// The budget. Every candidate is one full execution, so `max_executions` bounds the work (1000 by
// default). The first execution replays the original schedule to count its preemptions (only a
// run sees the enabled sets); it also checks that the execution belongs to this simulation.
// When the budget runs out, the best schedule found so far is returned; it is always valid. The
// same holds when `stop` is raised (SIGINT or SIGTERM): it is read before every candidate, so the
// search ends within one execution of it.

#include <atomic>
#include <stdexcept>
#include <cstddef>
#include <cstdint>

#include "sim/engine/simulation.hpp"

namespace weft::sim {

struct ShrinkOptions {
  std::size_t max_executions = 1000;        // re-executions, the one measuring the original included (it always runs)
  const std::atomic<bool>* stop = nullptr;  // raised: return the best so far at once
};

struct ShrinkResult {
  ExecutionResult result;  // the shrunk execution; result.schedule replays strictly
  std::size_t preemptions_before = 0;
  std::size_t preemptions_after = 0;
  std::uint64_t steps_before = 0;
  std::size_t executions = 0;     // re-executions used
  bool budget_exhausted = false;  // max_executions used up (maybe before a fixed point)
  bool stopped = false;           // ended by `stop` (maybe before a fixed point)
};

// The failing execution does not replay to its verdict on the simulation (a kernel that is not
// deterministic: it keeps state from one execution to the next).
struct NotReplayable : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

class Shrinker {
 public:
  explicit Shrinker(Simulation& simulation, ShrinkOptions options = {}) : simulation_(simulation), options_(options) {}

  // Shrinks `failing`, an execution of this simulation (its verdict and recorded schedule).
  // Throws NotReplayable when that schedule does not replay to that verdict here.
  ShrinkResult shrink(const ExecutionResult& failing);

 private:
  Simulation& simulation_;
  ShrinkOptions options_;
};

}  // namespace weft::sim
