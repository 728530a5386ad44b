#include "sim/cli/explore_output.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "sim/cli/finding_json.hpp"
#include "sim/cli/junit_xml.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/request/config_digest.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

using Json = nlohmann::ordered_json;

std::string runs_text(std::uint64_t runs) { return std::to_string(runs) + (runs == 1 ? " run" : " runs"); }

// Which exploration: what changes the runs it makes, or how many.
Json identity(const Request& request, const ExploreArguments& arguments) {
  Json line{{"explore", true}};
  line["scenario"] = request.scenario->name;
  line["config_digest"] = config_digest(request);
  line["expected"] = model::to_string(request.expect);
  line["keep_going"] = arguments.keep_going;
  line["max_executions"] = arguments.max_executions;
  line["preemption_bound"] = arguments.preemption_bound ? Json(*arguments.preemption_bound) : Json();
  line["jobs"] = arguments.jobs;
  return line;
}

// Why the exploration ended, in a word (the stdout's `space:` line says it in a sentence).
std::string space_word(const ExploreReport& report) {
  if (report.exhausted) return "exhausted";
  if (report.stopped_early) return "stopped_at_failure";
  if (report.interrupted) return "interrupted";
  if (report.out_of_memory) return "out_of_memory";
  return "bound";
}

bool stopped(const ExploreReport& report) { return report.interrupted || report.out_of_memory; }

}  // namespace

std::string explore_incomplete_note(const ExploreReport& report) {
  const std::string after = " after " + runs_text(report.complete + report.abandoned);
  if (report.interrupted) return "interrupted (SIGINT or SIGTERM)" + after;
  if (report.out_of_memory) return "stopped at the memory budget (memory.host_bytes)" + after;
  return "";
}

std::string explore_header_json(const Request& request, const ExploreArguments& arguments) {
  Json line{{"header", true}};
  line.update(identity(request, arguments));
  return json_text(line);
}

std::string explore_failure_json(const Request& request, const ExploreFinding& finding) {
  Json line;
  line["scenario"] = request.scenario->name;
  add_finding_fields(line, request, finding.found->first, finding.found->first.details, finding.signature,
                     finding.schedule);
  line["runs"] = finding.found->runs;
  line["reproduce"] = finding.reproduce;
  return json_text(line);
}

std::string explore_summary_json(const Request& request, const ExploreArguments& arguments, const ExploreReport& report,
                                 std::size_t failures) {
  Json line{{"summary", true}};
  line.update(identity(request, arguments));
  line["runs"] = report.complete;
  line["abandoned"] = report.abandoned;
  line["failures"] = failures;
  line["space"] = space_word(report);
  line["complete"] = !stopped(report);
  if (stopped(report)) line["incomplete"] = explore_incomplete_note(report);
  line["interrupted"] = report.interrupted;
  line["out_of_memory"] = report.out_of_memory;
  line["as_expected"] = report.as_expected(request.expect);
  if (report.estimated_classes > 0)
    line["estimated_classes"] = static_cast<std::uint64_t>(std::llround(report.estimated_classes));
  line["frontier"] = report.frontier;
  line["seconds"] = report.seconds;
  return json_text(line);
}

void write_explore_junit(const std::string& path, const Request& request, const ExploreReport& report,
                         const std::vector<ExploreFinding>& findings) {
  const std::string& scenario = request.scenario->name;
  const std::string expected(model::to_string(request.expect));
  std::string cases;
  std::uint64_t tests = 0, failures = 0, ok_runs = 0;
  for (const FoundVerdict& found : report.verdicts)
    if (found.verdict == model::Verdict::ok) ok_runs = found.runs;
  for (const ExploreFinding& finding : findings) {
    const ExecutionResult& result = finding.found->first;
    ++tests;
    if (result.verdict == request.expect) {
      cases += junit_passed(scenario, finding.signature,
                            runs_text(finding.found->runs) + ", as expected (" + expected +
                                "); the first replays with " + finding.reproduce);
      continue;
    }
    ++failures;
    cases += junit_failure_opening(scenario, finding.signature, 0, result,
                                   result.details.substr(0, result.details.find('\n')), finding.reproduce) +
             "    <system-out>" + runs_text(finding.found->runs) + "</system-out>\n  </testcase>\n";
  }
  ++tests;
  cases += junit_passed(scenario, runs_text(ok_runs) + " ok");
  if (request.expect != model::Verdict::ok && !report.found(request.expect) && !stopped(report) &&
      !report.stopped_early) {
    ++tests;
    ++failures;
    cases +=
        junit_failed(scenario, "expected " + expected + ", not found", "not_found",
                     "no run of the exploration gave " + expected + " (" +
                         (report.exhausted ? "the space was exhausted" : "the space was cut short by a bound") + ")");
  }
  if (stopped(report)) {
    ++tests;
    cases += junit_incomplete(scenario, "incomplete: the space was not exhausted", explore_incomplete_note(report));
  }
  WholeFile out(path);
  out.write(junit_suite_opening("explore", scenario, tests, failures, stopped(report) ? 1 : 0, report.seconds));
  out.write(cases);
  out.write(junit_suite_closing());
  out.commit();
}

}  // namespace weft::sim
