#include "sim/testing/scenario_checks.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "sim/cli/report.hpp"
#include "sim/cli/schedule_argument.hpp"
#include "sim/engine/explore.hpp"
#include "sim/explain/explain.hpp"

namespace weft::testing {
namespace {

sim::Request resolve(const Scenario& scenario, std::optional<std::string> strategy) {
  sim::RequestArguments arguments;
  arguments.scenario = scenario.name;
  arguments.config = scenario.config;
  arguments.sets = scenario.sets;
  arguments.expect = scenario.expect;
  arguments.strategy = std::move(strategy);
  return sim::resolve_request(arguments, scenario.scenarios);
}

// The report of a failure, explained, with its reproduce lines (a schedule too long for one
// argument goes to a file in the current folder: schedule_argument.hpp).
Finding finding(const sim::Request& request, const std::string& program, const sim::ExecutionResult& result,
                std::optional<std::uint64_t> seed, sim::FailureExplainer& explain) {
  const sim::ScheduleArgument schedule =
      sim::ScheduleFiles(request, std::nullopt)
          .argument(result.schedule, seed ? "seed-" + std::to_string(*seed) : "explored");
  return {
      seed, result.verdict, sim::format_report(request, result, program, seed, schedule.word(), explain(result)),
      seed ? sim::replay_by_seed(request, program, *seed) : sim::replay_by_schedule(request, program, schedule.word())};
}

// The totals line, then every finding's report.
std::string report_of(const std::string& what, const Result& result) {
  std::string text = what + ": " + std::to_string(result.executions) + " executions, " +
                     std::to_string(result.findings.size()) + " verdicts not as expected (expected " +
                     std::string(model::to_string(result.expected)) + ")" +
                     (result.as_expected ? "" : ": NOT as expected") + "\n";
  for (const Finding& finding : result.findings) text += "\n" + finding.report;
  return text;
}

}  // namespace

Result sweep(const Scenario& scenario, const SweepPlan& plan) {
  const sim::Request request = resolve(scenario, plan.strategy);
  sim::SweepOptions options;
  options.seeds = plan.seeds;
  options.jobs = plan.jobs;
  options.keep_going = plan.keep_going;
  Result result;
  result.expected = request.expect;
  sim::SweepListener listener;
  sim::FailureExplainer explain(request.config, *request.scenario, request.params);
  listener.failure = [&](const sim::SeedOutcome& outcome) {
    Finding found = finding(request, scenario.program, outcome.result, outcome.seed, explain);
    if (!outcome.nondeterminism.empty()) found.report += "NOT DETERMINISTIC: " + outcome.nondeterminism + "\n";
    result.findings.push_back(std::move(found));
  };
  result.executions = sim::run_sweep(request, options, listener).executions;
  result.as_expected = result.findings.empty();
  result.report = report_of("sweep of " + request.scenario->name + ", seeds " + std::to_string(plan.seeds.first) +
                                ".." + std::to_string(plan.seeds.last) + " (" + request.config.scheduler.strategy + ")",
                            result);
  return result;
}

Result explore(const Scenario& scenario, const ExplorePlan& plan) {
  const sim::Request request = resolve(scenario, std::nullopt);
  std::vector<std::unique_ptr<sim::Simulation>> simulations;
  std::vector<sim::Simulation*> workers;
  for (int k = 0; k < std::max(plan.jobs, 1); ++k) {
    simulations.push_back(std::make_unique<sim::Simulation>(request.config, *request.scenario, request.params));
    workers.push_back(simulations.back().get());
  }
  scheduler::ExploreOptions options;
  options.max_executions = plan.max_executions;
  options.preemption_bound = plan.preemption_bound;
  const sim::ExploreReport explored = plan.jobs > 1 ? sim::explore_in_parallel(workers, options, plan.keep_going)
                                                    : sim::explore(*workers.front(), options, plan.keep_going);
  Result result;
  result.expected = request.expect;
  result.executions = explored.complete;
  result.exhausted = explored.exhausted;
  result.as_expected = explored.as_expected(request.expect);
  sim::FailureExplainer explain(request.config, *request.scenario, request.params);
  for (const sim::FoundVerdict& found : explored.verdicts)
    if (found.verdict != model::Verdict::ok && found.verdict != request.expect)
      result.findings.push_back(finding(request, scenario.program, found.first, std::nullopt, explain));
  result.report = report_of(
      "explore of " + request.scenario->name + (explored.exhausted ? " (exhausted)" : " (not exhausted)"), result);
  if (!result.as_expected && result.findings.empty()) result.report += "no run gave the expected verdict\n";
  return result;
}

}  // namespace weft::testing
