#include "sim/cli/explore_command.hpp"

#include <algorithm>
#include <iostream>

#include "sim/cli/report.hpp"
#include "sim/engine/explore.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }


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
  write_traces(traces, recorder, trace_header(request, result, program, std::nullopt), std::cout);
}

}  // namespace

int command_explore(const Request& request, const std::string& program, const ExploreArguments& arguments,
                    const TraceFiles& traces) {
  Simulation simulation(request.config, *request.scenario, request.params);
  scheduler::ExploreOptions options;
  options.max_executions = arguments.max_executions;
  options.preemption_bound = arguments.preemption_bound;
  const ExploreReport report = explore(simulation, options, arguments.keep_going);

  std::cout << "explore:  " << request.scenario->name;
  if (request.arguments.scenario != request.scenario->name) std::cout << " (" << request.arguments.scenario << ")";
  std::cout << "\nruns:     " << report.complete << " complete, " << report.abandoned
            << " abandoned as redundant (sleep sets), " << report.seconds << " s, "
            << static_cast<std::uint64_t>((report.complete + report.abandoned) / std::max(report.seconds, 1e-9))
            << " runs/s\nspace:    ";
  if (report.exhausted)
    std::cout << "exhausted: every interleaving class was run";
  else if (report.stopped_early)
    std::cout << "stopped at the first failure (--keep-going explores on)";
  else
    std::cout << "cut short by a bound (--max-executions or --preemption-bound)";
  std::cout << "\nverdicts:\n";
  for (const FoundVerdict& found : report.verdicts) {
    std::cout << "  " << model::to_string(found.verdict) << ": " << found.runs << (found.runs == 1 ? " run" : " runs");
    if (found.verdict != model::Verdict::ok)
      std::cout << "\n    " << first_line(found.first.details) << "\n    "
                << replay_by_schedule(request, program, found.first.schedule);
    std::cout << "\n";
  }
  if (traces.any()) trace_first_failure(request, program, report, traces);
  const bool expected = report.as_expected(request.expect);
  std::cout << "result:   " << (expected ? "as expected" : "NOT as expected") << " (expected "
            << model::to_string(request.expect) << ")\n";
  return expected ? 0 : 1;
}

}  // namespace weft::sim
