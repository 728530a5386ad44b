// explore_over_ranks (explore_over_ranks.hpp): the tree owner's loop on rank 0, the helpers' on
// the others.
//
// The owner is one thread. It takes every message that has arrived, hands a claim to each helper
// waiting for one, then runs a claim itself; with nothing of its own to run, it waits for a
// message. A helper's next claim is made as soon as its run is in (near that run, as a thread's
// is), or later, when branches appear, without a near path.

#include <algorithm>
#include <chrono>
#include <ctime>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scheduler/strategies/claimed_run.hpp"
#include "sim/engine/explore_messages.hpp"
#include "sim/engine/explore_over_ranks.hpp"
#include "sim/engine/explore_parts.hpp"
#include "sim/engine/shared_tree_runs.hpp"

namespace weft::sim {
namespace {

using scheduler::SharedWakeupTree;
namespace messages = explore_messages;

// The owner's processor time (its thread's, so the time a machine with more ranks than cores
// gives to other ranks is not counted), for OwnerFigures only: it decides nothing.
class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total), started_(now()) {}
  ~Stopwatch() { total_ += now() - started_; }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  static double now() {
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_nsec) * 1e-9;
  }
  double& total_;
  double started_;
};

// Whether the tally would keep `result` as its verdict's run (explore_parts::tally, least).
bool kept_by_tally(const ExploreReport& report, const ExecutionResult& result) {
  const auto found = std::find_if(report.verdicts.begin(), report.verdicts.end(),
                                  [&](const FoundVerdict& f) { return f.verdict == result.verdict; });
  return found == report.verdicts.end() ||
         (result.verdict != model::Verdict::ok && result.schedule < found->first.schedule);
}

class Owner {
 public:
  Owner(Simulation& simulation, RankTransport& transport, const scheduler::ExploreOptions& options, bool keep_going,
        const ExploreWatch& watch, std::size_t budget)
      : simulation_(simulation),
        transport_(transport),
        options_(options),
        watch_(watch),
        helpers_(static_cast<std::size_t>(transport.ranks())),
        counted_(report_, watch, keep_going, budget),
        own_(strategy_, watch.stop) {}

  ExploreReport explore(OwnerFigures& figures);

 private:
  // A helper as the owner sees it. `near` is its last run's path, good while no prune has freed
  // states since (`near_prunes`).
  struct Helper {
    bool heard = false;                            // its first message came: it waits for claims
    std::optional<SharedWakeupTree::Claim> claim;  // the branch it runs
    std::optional<SharedWakeupTree::Path> near;
    std::uint64_t near_prunes = 0;
    std::vector<scheduler::Sleep> sleeps;  // the sleep sets along `near`
  };

  // `kept`, when given: how many of the claim's first states are those of `near` whose sleep
  // sets `sleeps` held (a helper keeps them from its last claim).
  std::optional<SharedWakeupTree::Claim> next_claim(std::optional<SharedWakeupTree::Path>& near,
                                                    std::uint64_t near_prunes, std::vector<scheduler::Sleep>& sleeps,
                                                    std::size_t* kept = nullptr);
  void hand_out(int rank);
  void take(RankTransport::Message message);
  void take_run(int rank, Helper& helper, std::string_view bytes);
  bool run_own();
  void count_run(const ExecutionResult& result, bool complete);
  bool outstanding() const;
  bool all_heard() const;

  Simulation& simulation_;
  RankTransport& transport_;
  const scheduler::ExploreOptions& options_;
  const ExploreWatch& watch_;
  std::vector<Helper> helpers_;  // by rank; rank 0's is unused
  SharedWakeupTree tree_;
  ExploreReport report_;
  SharedTreeRuns counted_;  // after report_, which it counts into
  bool halted_ = false;
  std::optional<std::string> helper_error_;
  std::uint64_t claims_ = 0, steps_ = 0, prunes_ = 0;
  int unpruned_ = 0;
  scheduler::ClaimedRun strategy_;
  explore_parts::Stoppable own_;
  std::optional<SharedWakeupTree::Path> own_near_;
  std::uint64_t own_near_prunes_ = 0;
  std::uint64_t helper_runs_ = 0;
  double tree_seconds_ = 0;
};

std::optional<SharedWakeupTree::Claim> Owner::next_claim(std::optional<SharedWakeupTree::Path>& near,
                                                         std::uint64_t near_prunes,
                                                         std::vector<scheduler::Sleep>& sleeps, std::size_t* kept) {
  if (halted_) return std::nullopt;
  if (options_.max_executions > 0 && claims_ >= options_.max_executions) {
    report_.bound_hit = true;
    return std::nullopt;
  }
  const bool near_valid = near && near_prunes == prunes_;
  const std::size_t lent = sleeps.size();
  std::optional<SharedWakeupTree::Claim> claim = tree_.claim(near_valid ? &*near : nullptr, &sleeps);
  if (kept != nullptr) {
    // The tree lends the sleep sets of the states the claim shares with `near` (claim_at).
    *kept = 0;
    if (claim && near_valid)
      while (*kept < claim->path.size() && *kept < near->size() && *kept < lent && (*near)[*kept] == claim->path[*kept])
        ++*kept;
  }
  near.reset();
  if (++unpruned_ >= 16) {  // as explore_in_parallel: once every 16 claims
    tree_.prune();
    ++prunes_;
    unpruned_ = 0;
  }
  if (claim) ++claims_;
  return claim;
}

void Owner::hand_out(int rank) {
  Helper& helper = helpers_[static_cast<std::size_t>(rank)];
  if (!helper.heard || helper.claim) return;
  const Stopwatch watch(tree_seconds_);
  std::size_t kept = 0;
  helper.claim = next_claim(helper.near, helper.near_prunes, helper.sleeps, &kept);
  if (helper.claim) transport_.send(rank, messages::encode_claim(*helper.claim, kept));
}

void Owner::take(RankTransport::Message message) {
  if (message.from <= 0 || message.from >= transport_.ranks())
    throw std::logic_error("explore: a message from rank " + std::to_string(message.from));
  Helper& helper = helpers_[static_cast<std::size_t>(message.from)];
  switch (messages::kind_of(message.bytes)) {
    case messages::Kind::ready:
      helper.heard = true;
      break;
    case messages::Kind::run:
      take_run(message.from, helper, message.bytes);
      break;
    case messages::Kind::error:
      if (!helper_error_)
        helper_error_ = "rank " + std::to_string(message.from) + ": " + messages::decode_error(message.bytes);
      helper.claim.reset();
      halted_ = true;
      break;
    default:
      throw std::logic_error("explore: rank " + std::to_string(message.from) + " sent a message meant for helpers");
  }
  hand_out(message.from);
}

void Owner::take_run(int rank, Helper& helper, std::string_view bytes) {
  if (!helper.claim) throw std::logic_error("explore: rank " + std::to_string(rank) + " sent a run it was not given");
  SharedWakeupTree::Claim claim = std::move(*helper.claim);
  helper.claim.reset();
  const Stopwatch watch(tree_seconds_);
  messages::RunMessage message = messages::decode_run(bytes);
  steps_ += message.outcome.steps;
  if (halted_) return;  // a run that ended after the stop counts for nothing
  if (message.outcome.stopped) {
    report_.interrupted = true;
    halted_ = true;
    return;
  }
  scheduler::SharedWakeupTree::Run& run = message.run;
  const std::size_t from = claim.first ? 0 : claim.forced.size();
  if (message.sleeps_from != from || run.enabled.size() != run.length || run.sleeps.size() != run.length)
    throw std::logic_error("explore: rank " + std::to_string(rank) + " sent a run that does not fit its claim");
  for (std::size_t t = 0; t < from; ++t) run.sleeps[t] = std::move(claim.sleeps[t]);
  {
    // The run's analysis, with the helper's order: its reversals rebuilt from their events (alive
    // while inserted).
    const scheduler::RaceAnalysis analysis(run.events, run.length,
                                           run.enabled.empty()
                                               ? std::span<const scheduler::StableActor>()
                                               : std::span<const scheduler::StableActor>(run.enabled.back()),
                                           scheduler::HappensBefore(std::move(message.clocks)));
    std::vector<scheduler::Reversal> reversals;
    reversals.reserve(message.races.size());
    for (const auto& [i, j] : message.races) reversals.push_back(analysis.reversal(i, j));
    SharedWakeupTree::Prepared states = SharedWakeupTree::prepare(claim, run);
    helper.near = tree_.finish(claim, std::move(states), run, reversals);
  }
  helper.near_prunes = prunes_;
  run.sleeps.resize(from);
  helper.sleeps = std::move(run.sleeps);
  ++helper_runs_;
  ExecutionResult result;
  if (message.outcome.complete) {
    result.verdict = message.outcome.verdict;
    result.schedule = std::move(message.outcome.schedule);
    result.steps = run.length;
    if (kept_by_tally(report_, result)) {  // the whole result, as the helper had it
      const model::Verdict verdict = result.verdict;
      result = simulation_.run_schedule(result.schedule);
      if (result.verdict != verdict)
        throw std::logic_error("explore: a run of rank " + std::to_string(rank) + " gave " +
                               std::string(model::to_string(verdict)) + " there and " +
                               std::string(model::to_string(result.verdict)) + " replayed on rank 0");
    }
  }
  count_run(result, message.outcome.complete);
}

bool Owner::run_own() {
  std::optional<SharedWakeupTree::Claim> claim = next_claim(own_near_, own_near_prunes_, strategy_.sleeps());
  if (!claim) return false;
  strategy_.start(std::move(*claim));
  ExecutionResult result;
  bool complete = true;
  try {
    result = simulation_.run(own_);
  } catch (const scheduler::ExecutionAbandoned&) {
    complete = false;
  } catch (const explore_parts::ExploreStopped&) {
    report_.interrupted = true;
    halted_ = true;
    return true;
  } catch (const std::bad_alloc&) {  // the host ran out before the budget did: stop as at the budget
    report_.out_of_memory = true;
    report_.allocation_failed = true;
    halted_ = true;
    return true;
  }
  std::vector<scheduler::Reversal>& reversals = strategy_.analyse();
  SharedWakeupTree::Prepared states = strategy_.new_states();
  own_near_ = tree_.finish(strategy_.claim(), std::move(states), strategy_.run(), reversals);
  own_near_prunes_ = prunes_;
  count_run(result, complete);
  return true;
}

void Owner::count_run(const ExecutionResult& result, bool complete) {
  if (counted_.count(tree_, result, complete)) halted_ = true;
}

bool Owner::outstanding() const {
  return std::any_of(helpers_.begin(), helpers_.end(), [](const Helper& helper) { return helper.claim.has_value(); });
}

bool Owner::all_heard() const {
  return std::all_of(helpers_.begin() + 1, helpers_.end(), [](const Helper& helper) { return helper.heard; });
}

ExploreReport Owner::explore(OwnerFigures& figures) {
  const int ranks = transport_.ranks();
  for (;;) {
    while (std::optional<RankTransport::Message> message = transport_.receive(false)) take(std::move(*message));
    if (watch_.stop != nullptr && watch_.stop->load() && !halted_) {
      report_.interrupted = true;
      halted_ = true;
    }
    for (int rank = 1; rank < ranks; ++rank) hand_out(rank);
    const bool ended = halted_ || tree_.done() || report_.bound_hit;
    if (ended && !outstanding() && all_heard()) break;
    if (!ended && run_own()) continue;
    if (!outstanding() && all_heard()) {
      if (halted_ || tree_.done() || report_.bound_hit) continue;                  // it ended just now
      throw std::logic_error("explore: the tree has branches no rank can claim");  // yet nothing runs anywhere
    }
    take(std::move(*transport_.receive(true)));
  }
  for (int rank = 1; rank < ranks; ++rank) transport_.send(rank, messages::encode_stop());
  if (helper_error_) throw std::runtime_error("explore: " + *helper_error_);
  steps_ += own_.steps();
  figures = {ranks, helper_runs_, tree_seconds_};
  ExploreReport report = std::move(report_);
  const bool done = tree_.done();
  report.exhausted = done && !report.stopped_early && !report.interrupted && !report.out_of_memory;
  report.bound_hit = report.bound_hit && !done;
  report.frontier = tree_.waiting();
  report.steps = steps_;
  std::sort(report.verdicts.begin(), report.verdicts.end(),
            [](const FoundVerdict& a, const FoundVerdict& b) { return a.verdict < b.verdict; });
  return report;
}

}  // namespace

ExploreReport explore_over_ranks(Simulation& simulation, RankTransport& transport,
                                 const scheduler::ExploreOptions& options, bool keep_going, const ExploreWatch& watch,
                                 OwnerFigures* figures) {
  if (transport.rank() != 0) throw std::invalid_argument("explore: the tree is owned by rank 0");
  if (options.preemption_bound || !options.reduction)
    throw std::invalid_argument("explore: several ranks explore with the reduction and no preemption bound");
  explore_parts::refuse_checkpoints(watch, "several ranks");
  explore_parts::check_explorable(simulation.config());
  const auto started = std::chrono::steady_clock::now();  // for the report's rate only
  Owner owner(simulation, transport, options, keep_going, watch,
              explore_parts::memory_budget(watch, simulation.config()));
  OwnerFigures measured;
  ExploreReport report = owner.explore(measured);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (figures != nullptr) *figures = measured;
  return report;
}

void help_explore(Simulation& simulation, RankTransport& transport, const ExploreWatch& watch) {
  if (transport.rank() == 0) throw std::invalid_argument("explore: rank 0 owns the tree, it does not help");
  scheduler::ClaimedRun strategy;
  explore_parts::Stoppable stoppable(strategy, watch.stop);
  bool failed = false;  // after its failure, a helper only waits to be stopped
  transport.send(0, messages::encode_ready());
  for (;;) {
    const RankTransport::Message message = *transport.receive(true);
    try {
      if (message.from != 0)
        throw std::logic_error("explore: a helper heard from rank " + std::to_string(message.from));
      const messages::Kind kind = messages::kind_of(message.bytes);
      if (kind == messages::Kind::stop) return;
      if (failed) continue;
      SharedWakeupTree::Claim claim =
          messages::decode_claim(message.bytes, strategy.claim().forced, &strategy.sleeps());
      const std::size_t sleeps_from = claim.first ? 0 : claim.forced.size();
      strategy.start(std::move(claim));
      messages::Outcome outcome;
      const std::uint64_t before = stoppable.steps();
      try {
        ExecutionResult result = simulation.run(stoppable);
        outcome.complete = true;
        outcome.verdict = result.verdict;
        outcome.schedule = std::move(result.schedule);
      } catch (const scheduler::ExecutionAbandoned&) {
      } catch (const explore_parts::ExploreStopped&) {
        outcome.stopped = true;
      }
      outcome.steps = stoppable.steps() - before;
      if (outcome.stopped) {
        transport.send(0, messages::encode_run({}, 0, {}, {{}, {}, {}, {0}}, outcome));
        continue;
      }
      const std::vector<scheduler::Reversal>& reversals = strategy.analyse();
      transport.send(0, messages::encode_run(strategy.run(), sleeps_from, reversals,
                                             strategy.analysis().order().clocks(), outcome));
    } catch (const std::exception& error) {
      failed = true;
      transport.send(0, messages::encode_error(error.what()));
    }
  }
}

}  // namespace weft::sim
