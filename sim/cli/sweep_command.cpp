#include "sim/cli/sweep_command.hpp"

#include <algorithm>
#include <iostream>
#include <new>

#include "sim/cli/junit_report.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/signature.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/engine/shrinker.hpp"
#include "sim/explain/explain.hpp"

namespace weft::sim {
namespace {

std::string seed_name(std::uint64_t seed) { return "seed-" + std::to_string(seed); }

// Shrinks the first failure, unless the sweep was stopped: by a signal, or by an allocation that
// failed (an allocation failing while shrinking stops the shrinking, not the command).
void print_shrunk(const Request& request, const std::string& program, const ScheduleFiles& schedules,
                  const SeedOutcome& failure, std::size_t budget, const std::atomic<bool>* interrupted,
                  const SweepSummary& summary) {
  if (interrupted != nullptr && interrupted->load()) {
    write_record(std::cout, "shrinking skipped: the sweep was interrupted\n\n");
    return;
  }
  if (summary.allocation_failed) {
    write_record(std::cout, "shrinking skipped: an allocation failed during the sweep\n\n");
    return;
  }
  ShrinkResult shrunk;
  try {
    Simulation simulation(request.config, *request.scenario, request.params);
    shrunk = Shrinker(simulation, {budget, interrupted}).shrink(failure.result);
  } catch (const NotReplayable&) {
    write_record(std::cout, "shrinking skipped: seed " + std::to_string(failure.seed) +
                                " does not replay to its verdict (the kernel is not deterministic)\n\n");
    return;
  } catch (const std::bad_alloc&) {
    write_record(std::cout, "shrinking stopped: an allocation failed (the host ran out of memory)\n\n");
    return;
  }
  write_record(
      std::cout,
      "shrunk seed " + std::to_string(failure.seed) + ": " + std::to_string(shrunk.preemptions_before) + " -> " +
          std::to_string(shrunk.preemptions_after) + " preemptions, " + std::to_string(shrunk.steps_before) + " -> " +
          std::to_string(shrunk.result.steps) + " steps (" + std::to_string(shrunk.executions) + " re-executions" +
          (shrunk.stopped ? "; interrupted: the simplest schedule found so far" : "") + "), verdict " +
          std::string(model::to_string(shrunk.result.verdict)) + "\n  " +
          replay_by_schedule(request, program,
                             schedules.argument(shrunk.result.schedule, seed_name(failure.seed) + ".shrunk").word()) +
          "\n\n");
}

// A found_within scenario swept whole over seeds 0..N-1 (one shard) with none of them reaching
// its verdict: the bug it promises is gone (or was never there).
bool missed_rare_bug(const Request& request, const SweepOptions& options, const SweepSummary& summary) {
  return request.found_within && summary.found == 0 && summary.complete() && summary.failures == 0 &&
         options.shard.count <= 1 && options.seeds.first == 0 && options.seeds.last + 1 >= *request.found_within;
}

std::string summary_line(const Request& request, const SweepOptions& options, const SweepSummary& summary) {
  std::string line = "sweep: " + request.scenario->name + ", seeds " + std::to_string(options.seeds.first) + ".." +
                     std::to_string(options.seeds.last);
  if (options.shard.count > 1)
    line += " shard " + std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
  line += ": " + std::to_string(summary.executions) + " executions, " + std::to_string(summary.failures) +
          " not as expected (" + std::string(model::to_string(request.expect)) + "), " +
          std::to_string(static_cast<std::uint64_t>(summary.executions / std::max(summary.seconds, 1e-9))) +
          " executions/s\n";
  if (request.found_within) {
    const std::string verdict(model::to_string(request.expect));
    line += "sweep: " + std::to_string(summary.found) + " reached " + verdict +
            " (the scenario's found_within: some of seeds 0.." + std::to_string(*request.found_within - 1) +
            " do, the others are ok)\n";
    if (missed_rare_bug(request, options, summary))
      line += "sweep: NOT as expected: no execution of seeds 0.." + std::to_string(*request.found_within - 1) +
              " reached " + verdict + "\n";
  }
  if (!summary.complete()) line += "sweep: INCOMPLETE: " + incomplete_note(summary) + "\n";
  return line;
}

}  // namespace

int command_sweep(const Request& request, const std::string& program, const SweepOptions& options,
                  const SweepFiles& files) {
  ProgressLine progress(shard_seed_count(options));  // first: refuses a range it cannot count
  std::optional<JsonLinesFile> jsonl;
  if (files.jsonl) {
    jsonl.emplace(*files.jsonl);
    jsonl->write(header_json(request, options));
  }
  std::optional<JunitReport> junit;
  if (files.junit) junit.emplace(*files.junit, request, program);
  std::optional<SeedOutcome> first_failure;  // the one to shrink; the others are written and let go
  FindingGroups findings;                    // a count per signature, not the failures
  const ScheduleFiles schedules(request, files.jsonl ? files.jsonl : files.junit);

  SweepListener listener;
  FailureExplainer explain_failure(request.config, *request.scenario, request.params);
  listener.failure = [&](const SeedOutcome& outcome) {
    progress.clear();
    const std::string signature = finding_signature(outcome.result);
    // One report per signature (the others are counted in the findings), unless --verbose; a
    // failure that did not replay identically is always reported. A schedule too long for one
    // argument goes to a file for a reported failure only; the others replay by seed.
    const bool reported = findings.add(signature, outcome) || files.verbose || !outcome.nondeterminism.empty();
    const ScheduleArgument schedule = schedules.argument(outcome.result.schedule, seed_name(outcome.seed), reported);
    if (jsonl) jsonl->write(failure_json(request, outcome, signature, program, schedule));
    if (junit) junit->add_failure(outcome, signature);
    if (!first_failure) first_failure = outcome;
    if (!reported) return;
    std::string report =
        format_report(request, outcome.result, program, outcome.seed, schedule.word(), explain_failure(outcome.result));
    if (!outcome.nondeterminism.empty()) report += "NOT DETERMINISTIC: " + outcome.nondeterminism + "\n";
    write_record(std::cout, report + "\n");
  };
  listener.progress = [&](std::uint64_t done, std::uint64_t failed) { progress.update(done, failed); };
  const SweepSummary summary = [&] {
    try {
      return run_sweep(request, options, listener);
    } catch (...) {  // refused (exit status 2): no output file that reads as a killed sweep's
      if (jsonl) jsonl->discard_if_bare();
      throw;
    }
  }();
  progress.clear();
  if (jsonl) {
    jsonl->write(summary_json(request, options, summary));
    jsonl->commit();
  }
  if (junit) junit->finish(summary);
  if (first_failure && files.shrink_budget > 0)
    print_shrunk(request, program, schedules, *first_failure, files.shrink_budget, options.interrupted, summary);
  if (options.keep_going && first_failure) write_record(std::cout, findings.summary() + "\n");
  write_record(std::cout, summary_line(request, options, summary));
  if (summary.failures > 0 || missed_rare_bug(request, options, summary)) return 1;
  return summary.complete() ? 0 : exit_incomplete;
}

}  // namespace weft::sim
