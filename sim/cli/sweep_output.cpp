#include "sim/cli/sweep_output.hpp"

#include <nlohmann/json.hpp>

#include "scheduler/strategies/portfolio.hpp"
#include "sim/cli/report.hpp"
#include "sim/request/config_digest.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

// The first line of what happened, at most 4 KiB of it (a kernel's message can be any length;
// the report on stdout and the JUnit report have all of it), cut between UTF-8 characters.
std::string description(const std::string& text) {
  constexpr std::size_t most = 4096;
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() <= most) return line;
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "...";
}

using Json = nlohmann::ordered_json;

// The structured finding: one object per site (a racing access, a core that stopped), at most
// `most_sites` of them (a deadlock of every core of a large machine would outgrow the 8 MiB line
// that weft merge reads), with what is known of it and nothing more.
constexpr std::size_t most_sites = 1000;

Json site_json(const model::FailureSite& site, bool access) {
  Json json;
  json["actor"] = site.who.kind == model::Accessor::Kind::core ? "core" : "dma";
  json["index"] = site.who.index;
  if (access) json["access"] = site.who.is_write ? "write" : "read";
  json["step"] = site.step;
  if (site.line.line > 0) {
    json["file"] = model::file_name(site.line);
    json["line"] = site.line.line;
  }
  json["what"] = site.what;
  if (site.waits) {
    json["semaphore"] = site.waits->semaphore_id;
    json["needs"] = site.waits->needs;
    json["holds"] = site.waits->holds;
  }
  return json;
}

void add_sites(const ExecutionResult& result, Json& line) {
  const bool accesses = result.verdict == model::Verdict::data_race;  // else the cores that stopped
  Json sites = Json::array();
  for (std::size_t at = 0; at < result.sites.size() && at < most_sites; ++at)
    sites.push_back(site_json(result.sites[at], accesses));
  line["sites"] = std::move(sites);
  if (result.sites.size() > most_sites) line["sites_left_out"] = result.sites.size() - most_sites;
}

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
  line["verdict"] = model::to_string(outcome.result.verdict);
  line["expected"] = model::to_string(request.expect);
  line["description"] = description(outcome.nondeterminism.empty() ? outcome.result.details : outcome.nondeterminism);
  line["steps"] = outcome.result.steps;
  line["signature"] = signature;
  add_sites(outcome.result, line);
  if (schedule.file)
    line["schedule_file"] = *schedule.file;
  else if (schedule.left_out)
    line["schedule_left_out"] = "longer than a command-line argument; written once per signature: replay this seed by reproduce";
  else
    line["schedule"] = schedule.schedule;
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
  line["seconds"] = summary.seconds;
  return json_text(line);
}

std::string incomplete_note(const SweepSummary& summary) {
  const std::string why = summary.interrupted ? "interrupted (SIGINT, SIGTERM, SIGHUP, or stdout closed)" : "out of time (--time-budget)";
  std::string note = why + " after " + std::to_string(summary.executions) + " of " + std::to_string(summary.planned) + " seeds";
  if (summary.next_seed) note += "; seeds from " + std::to_string(*summary.next_seed) + " on did not run";
  return note;
}

}  // namespace weft::sim
