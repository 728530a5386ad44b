#include "sim/cli/sweep_output.hpp"

#include <nlohmann/json.hpp>

#include "scheduler/strategies/portfolio.hpp"
#include "sim/cli/finding_json.hpp"
#include "sim/cli/report.hpp"
#include "sim/request/config_digest.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

using Json = nlohmann::ordered_json;

// The fields of sweep_identity_keys, and this shard.
Json identity(const Request& request, const SweepOptions& options) {
  Json line;
  line["scenario"] = request.scenario->name;
  line["config_digest"] = config_digest(request);
  line["strategy"] = request.config.scheduler.strategy;
  line["expected"] = model::to_string(request.expect);
  line["seeds"] = std::to_string(options.seeds.first) + ".." + std::to_string(options.seeds.last);
  line["keep_going"] = options.keep_going;
  line["shard"] = std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
  return line;
}

}  // namespace

std::string header_json(const Request& request, const SweepOptions& options) {
  Json line{{"header", true}};
  line.update(identity(request, options));
  line["planned"] = shard_seed_count(options);
  return json_text(line);
}

std::string failure_json(const Request& request, const SeedOutcome& outcome, const std::string& signature,
                         const std::string& program, const ScheduleArgument& schedule) {
  Json line;
  line["scenario"] = request.scenario->name;
  line["seed"] = outcome.seed;
  if (request.config.scheduler.strategy == "portfolio")
    line["portfolio_member"] = scheduler::to_string(scheduler::portfolio_member(outcome.seed));
  add_finding_fields(line, request, outcome.result,
                     outcome.nondeterminism.empty() ? outcome.result.details : outcome.nondeterminism, signature,
                     schedule);
  line["reproduce"] = replay_by_seed(request, program, outcome.seed);
  return json_text(line);
}

std::string summary_json(const Request& request, const SweepOptions& options, const SweepSummary& summary) {
  Json line{{"summary", true}};
  line.update(identity(request, options));
  line["planned"] = summary.planned;
  line["executions"] = summary.executions;
  line["failures"] = summary.failures;
  line["complete"] = summary.complete();
  if (summary.next_seed) line["stopped_before_seed"] = *summary.next_seed;
  if (!summary.complete()) line["incomplete"] = incomplete_note(summary);
  line["interrupted"] = summary.interrupted;
  line["out_of_time"] = summary.out_of_time;
  line["allocation_failed"] = summary.allocation_failed;
  line["seconds"] = summary.seconds;
  return json_text(line);
}

std::string incomplete_note(const SweepSummary& summary) {
  const std::string why = summary.allocation_failed
                              ? "stopped when an allocation failed (the host ran out of memory: its address-space or "
                                "cgroup limit, or what the jobs' executions took at once)"
                          : summary.interrupted ? "interrupted (SIGINT, SIGTERM, SIGHUP, or stdout closed)"
                                                : "out of time (--time-budget)";
  std::string note =
      why + " after " + std::to_string(summary.executions) + " of " + std::to_string(summary.planned) + " seeds";
  if (summary.next_seed) note += "; seeds from " + std::to_string(*summary.next_seed) + " on did not run";
  return note;
}

}  // namespace weft::sim
