#include "sim/cli/sweep_output.hpp"

#include <nlohmann/json.hpp>

#include "sim/cli/report.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string failure_json(const Request& request, const SeedOutcome& outcome, const std::string& program) {
  nlohmann::ordered_json line;
  line["scenario"] = request.scenario->name;
  line["seed"] = outcome.seed;
  line["verdict"] = model::to_string(outcome.result.verdict);
  line["expected"] = model::to_string(request.expect);
  line["description"] = outcome.nondeterminism.empty() ? first_line(outcome.result.details) : outcome.nondeterminism;
  line["steps"] = outcome.result.steps;
  line["schedule"] = scheduler::encode(outcome.result.schedule);
  line["reproduce"] = replay_by_seed(request, program, outcome.seed);
  return line.dump();
}

std::string summary_json(const Request& request, const SweepOptions& options, const SweepSummary& summary) {
  nlohmann::ordered_json line;
  line["summary"] = true;
  line["scenario"] = request.scenario->name;
  line["seeds"] = std::to_string(options.seeds.first) + ".." + std::to_string(options.seeds.last);
  line["shard"] = std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
  line["planned"] = summary.planned;
  line["executions"] = summary.executions;
  line["failures"] = summary.failures;
  line["complete"] = summary.complete();
  if (summary.next_seed) line["stopped_before_seed"] = *summary.next_seed;
  if (!summary.complete()) line["incomplete"] = incomplete_note(summary);
  line["interrupted"] = summary.interrupted;
  line["out_of_time"] = summary.out_of_time;
  line["seconds"] = summary.seconds;
  return line.dump();
}

std::string incomplete_note(const SweepSummary& summary) {
  const std::string why = summary.interrupted ? "interrupted (SIGINT or SIGTERM)" : "out of time (--time-budget)";
  std::string note = why + " after " + std::to_string(summary.executions) + " of " + std::to_string(summary.planned) + " seeds";
  if (summary.next_seed) note += "; seeds from " + std::to_string(*summary.next_seed) + " on did not run";
  return note;
}

}  // namespace weft::sim
