#include "sim/cli/explore_command.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "model/host_memory.hpp"
#include "sim/cli/checkpoint_file.hpp"
#include "sim/cli/estimate_text.hpp"
#include "sim/cli/exit_status.hpp"
#include "sim/cli/explore_output.hpp"
#include "sim/cli/explore_progress.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/schedule_argument.hpp"
#include "sim/cli/signature.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/engine/explore.hpp"
#include "sim/engine/explore_over_ranks.hpp"
#include "sim/explain/explain.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// A verdict found that is neither ok nor the expected one.
bool found_unexpected(const ExploreReport& report, model::Verdict expect) {
  return std::any_of(report.verdicts.begin(), report.verdicts.end(), [&](const FoundVerdict& found) {
    return found.verdict != model::Verdict::ok && found.verdict != expect;
  });
}

std::string megabytes(std::size_t bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e6 << " MB";
  return text.str();
}

// Why the exploration ended, in a word or two and what it means.
std::string why_it_ended(const ExploreReport& report, std::size_t budget) {
  if (report.exhausted) return "exhausted: the reduction left no interleaving to run (docs/semantics.md §7)";
  if (report.stopped_early) return "stopped at the first failure (--keep-going explores on)";
  if (report.interrupted)
    return "interrupted (SIGINT, SIGTERM, SIGHUP, or stdout closed): the rest of the space was not run";
  if (report.allocation_failed)
    return "stopped when an allocation failed: the host (its address-space or cgroup limit) ran out while the "
           "explorer kept " +
           std::to_string(report.peak_memory_bytes) + " bytes of a budget of " + std::to_string(budget) +
           " (memory.host_bytes); the rest of the space was not run (a lower memory.host_bytes stops it in time)";
  if (report.out_of_memory)
    return "stopped at the memory budget: the explorer kept " + std::to_string(report.peak_memory_bytes) +
           " bytes, over the " + std::to_string(budget) +
           " of memory.host_bytes; the rest of the space was not run "
           "(--preemption-bound K, or a smaller configuration, explores less)";
  return "cut short by a bound (--max-executions or --preemption-bound)";
}

// Why the exploration ended; cut short, how far it got and how long the rest would take.
std::string space_line(const ExploreReport& report, std::size_t budget, int jobs) {
  std::string line = why_it_ended(report, budget);
  if (!report.exhausted && report.estimated_classes > 0)
    line +=
        "\n          " +
        space_estimate(report.complete, report.estimated_classes,
                       static_cast<double>(report.complete + report.abandoned) / std::max(report.seconds, 1e-9), jobs);
  return line;
}

// Where the state went, and how to go on from it.
std::string checkpoint_line(const std::string& path, const std::optional<std::string>& resumed,
                            const ExploreReport& report) {
  std::string line = (resumed ? "resumed from " + *resumed + ", saved to " : "saved to ") + path;
  if (report.interrupted || report.out_of_memory) line += " (go on with --resume " + path + ")";
  return line;
}

// How the ranks shared the exploration, and what the tree owner spent on the others' runs.
std::string ranks_line(const OwnerFigures& owner) {
  std::ostringstream text;
  text << owner.ranks << (owner.ranks == 1 ? " rank" : " ranks") << ", rank 0 owning the tree; " << owner.helper_runs
       << " runs by the others";
  if (owner.helper_runs > 0)
    text << ", " << std::fixed << std::setprecision(1)
         << owner.tree_seconds * 1e6 / static_cast<double>(owner.helper_runs) << " us of rank 0's time each";
  return text.str();
}

// Each failing verdict's first run, with its signature and the schedule that replays it.
std::vector<ExploreFinding> findings_of(const Request& request, const std::string& program, const ExploreReport& report,
                                        const ScheduleFiles& schedules) {
  std::vector<ExploreFinding> findings;
  for (const FoundVerdict& found : report.verdicts) {
    if (found.verdict == model::Verdict::ok) continue;
    ScheduleArgument schedule =
        schedules.argument(found.first.schedule, "explore-" + std::string(model::to_string(found.verdict)));
    std::string reproduce = replay_by_schedule(request, program, schedule.word());
    findings.push_back({&found, finding_signature(found.first), std::move(schedule), std::move(reproduce)});
  }
  return findings;
}

void trace_first_failure(const Request& request, const std::string& program, const ExploreReport& report,
                         const TraceFiles& traces) {
  const auto failure = std::find_if(report.verdicts.begin(), report.verdicts.end(),
                                    [](const FoundVerdict& found) { return found.verdict != model::Verdict::ok; });
  if (failure == report.verdicts.end()) {
    std::cout << "traces:   not written: no failure was found\n";
    return;
  }
  Simulation simulation(request.config, *request.scenario, request.params);
  TraceRecorder recorder(request.config.machine.devices(), request.config.machine.cores_per_device);
  const ExecutionResult result = simulation.run_schedule(failure->first.schedule, &recorder);
  const std::string word = ScheduleFiles(request, traces.first_file())
                               .argument(result.schedule, "explore-" + std::string(model::to_string(result.verdict)))
                               .word();
  write_traces(traces, recorder, trace_header(request, result, program, std::nullopt, word), std::cout);
}

}  // namespace

int command_explore(const Request& request, const std::string& program, const ExploreArguments& arguments,
                    const TraceFiles& traces) {
  if (arguments.ranks != nullptr && arguments.jobs > 1) {
    std::cerr
        << "weft: explore --jobs " << arguments.jobs
        << " runs threads of one process; here processes share the exploration (mpirun -np N weft-mpi explore ...)\n";
    return 2;
  }
  if ((arguments.checkpoint || arguments.resume) && (arguments.jobs > 1 || arguments.ranks != nullptr)) {
    std::cerr << "weft: explore --checkpoint and --resume need one job (--jobs 1, not weft-mpi): the shared "
                 "tree's state is not saved (docs/exploring.md)\n";
    return 2;
  }
  if (arguments.ranks != nullptr && arguments.ranks->rank() != 0) {
    Simulation simulation(request.config, *request.scenario, request.params);
    ExploreWatch watch;
    watch.stop = arguments.interrupted;
    help_explore(simulation, *arguments.ranks, watch);
    return 0;
  }
  std::vector<std::unique_ptr<Simulation>> simulations;
  for (int k = 0; k < arguments.jobs; ++k)
    simulations.push_back(std::make_unique<Simulation>(request.config, *request.scenario, request.params));
  scheduler::ExploreOptions options;
  options.max_executions = arguments.max_executions;
  options.preemption_bound = arguments.preemption_bound;
  const CheckpointIdentity identity = checkpoint_identity(request, options, arguments.keep_going);
  std::optional<ExploreSaved> resumed;
  if (arguments.resume) {
    try {
      resumed = read_checkpoint(*arguments.resume, identity);
    } catch (const CheckpointRefused& refused) {
      std::cerr << "weft: explore: " << refused.what() << "\n";
      return 2;
    }
  }
  const std::optional<std::string> checkpoint = arguments.checkpoint ? arguments.checkpoint : arguments.resume;
  std::optional<JsonLinesFile> jsonl;  // opened first: refuses a file another weft is writing
  if (arguments.jsonl) {
    jsonl.emplace(*arguments.jsonl);
    jsonl->write(explore_header_json(request, arguments));
  }
  ExploreProgressLine progress;
  ExploreWatch watch;
  watch.stop = arguments.interrupted;
  watch.progress = [&](const ExploreProgress& now) { progress.update(now); };
  if (checkpoint) watch.save = [&](const ExploreSaved& state) { write_checkpoint(*checkpoint, {identity, state}); };
  watch.save_every_seconds = arguments.checkpoint_every;
  if (resumed) watch.resume = &*resumed;
  std::vector<Simulation*> workers;
  for (const auto& simulation : simulations) workers.push_back(simulation.get());
  OwnerFigures owner;
  ExploreReport report;
  try {
    report = arguments.ranks != nullptr
                 ? explore_over_ranks(*workers.front(), *arguments.ranks, options, arguments.keep_going, watch, &owner)
             : arguments.jobs > 1 ? explore_in_parallel(workers, options, arguments.keep_going, watch)
                                  : explore(*workers.front(), options, arguments.keep_going, nullptr, watch);
  } catch (const ResumeError& error) {
    progress.clear();
    if (jsonl) jsonl->discard_if_bare();
    std::cerr << "weft: explore: cannot resume " << *arguments.resume << ": " << error.what() << "\n";
    return 2;
  } catch (...) {  // refused (exit status 2): no output file that reads as a killed exploration's
    if (jsonl) jsonl->discard_if_bare();
    throw;
  }
  progress.clear();

  std::cout << "explore:  " << request.scenario->name;
  if (request.arguments.scenario != request.scenario->name) std::cout << " (" << request.arguments.scenario << ")";
  // Optimal-DPOR runs each interleaving class once. Not quite here: a run stopped midway by a
  // failure (a race, a scope's end with a copy in flight, a kernel error) makes its last step
  // dependent on what it left enabled, which the sleep sets do not know, and the explorer can then
  // run a class twice (docs/semantics.md §7). Only --keep-going explores on after such a run, so
  // the line claims one run per class unless it did and some run failed.
  const bool each_class_once = !arguments.keep_going || std::all_of(report.verdicts.begin(), report.verdicts.end(),
                                                                    [](const FoundVerdict& found) {
                                                                      return found.verdict == model::Verdict::ok;
                                                                    });
  std::cout << "\nruns:     " << report.complete << " complete";
  if (each_class_once) std::cout << ", one per interleaving class";
  if (report.abandoned > 0) std::cout << " (and " << report.abandoned << " cut short by their sleep sets)";
  std::cout << ", " << report.seconds << " s, "
            << static_cast<std::uint64_t>((report.complete + report.abandoned) / std::max(report.seconds, 1e-9))
            << " runs/s\nspace:    "
            << space_line(report, model::host_budget_bytes(request.config.machine), arguments.jobs)
            << "\nkept:     at most " << megabytes(report.peak_memory_bytes) << " by the explorer, " << report.frontier
            << " branches still waiting";
  if (arguments.ranks != nullptr) std::cout << "\nranks:    " << ranks_line(owner);
  if (checkpoint) std::cout << "\ncheckpoint: " << checkpoint_line(*checkpoint, arguments.resume, report);
  std::cout << "\nverdicts:\n";
  // Each failure's first run: its line in the list (with its signature, as a sweep groups
  // findings), then its whole report, explained as `weft run` explains it.
  const ScheduleFiles schedules(request, arguments.jsonl   ? arguments.jsonl
                                         : arguments.junit ? arguments.junit
                                                           : traces.first_file());
  const std::vector<ExploreFinding> findings = findings_of(request, program, report, schedules);
  FailureExplainer explain_failure(request.config, *request.scenario, request.params);
  std::string reports;
  auto finding = findings.begin();
  for (const FoundVerdict& found : report.verdicts) {
    std::cout << "  " << model::to_string(found.verdict) << ": " << found.runs << (found.runs == 1 ? " run" : " runs");
    if (found.verdict != model::Verdict::ok) {
      std::cout << "\n    signature: " << finding->signature << "\n    " << first_line(found.first.details) << "\n    "
                << finding->reproduce;
      reports += "\n" + format_report(request, found.first, program, std::nullopt, finding->schedule.word(),
                                      explain_failure(found.first));
      ++finding;
    }
    std::cout << "\n";
  }
  std::cout << reports;
  if (jsonl) {
    for (const ExploreFinding& each : findings) jsonl->write(explore_failure_json(request, each));
    jsonl->write(explore_summary_json(request, arguments, report, findings.size()));
    jsonl->commit();
  }
  if (arguments.junit) write_explore_junit(*arguments.junit, request, report, findings);
  if (traces.any()) trace_first_failure(request, program, report, traces);
  const bool unexpected = found_unexpected(report, request.expect);
  const bool stopped = report.interrupted || report.out_of_memory;
  const bool expected = report.as_expected(request.expect);
  std::cout << "result:   "
            << (stopped && !unexpected ? "not done: nothing unexpected so far"
                : expected             ? "as expected"
                                       : "NOT as expected")
            << " (expected " << model::to_string(request.expect) << ")\n";
  if (stopped) return unexpected ? 1 : exit_incomplete;
  return expected ? 0 : 1;
}

}  // namespace weft::sim
