#include "sim/cli/sweep_output.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/cli/report.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

double now_seconds() {  // progress display only
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

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
  line["complete"] = !summary.next_seed.has_value() || summary.failures > 0;
  if (summary.next_seed) line["stopped_before_seed"] = *summary.next_seed;
  line["interrupted"] = summary.interrupted;
  line["out_of_time"] = summary.out_of_time;
  line["seconds"] = summary.seconds;
  return line.dump();
}

void write_junit(const std::string& path, const Request& request, const SweepSummary& summary,
                 const std::vector<SeedOutcome>& failures, const std::string& program) {
  const std::string name = xml_escape(request.scenario->name);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites>\n<testsuite name=\"weft sweep " + name + "\" tests=\"" + std::to_string(summary.executions) +
         "\" failures=\"" + std::to_string(failures.size()) + "\" time=\"" + std::to_string(summary.seconds) + "\">\n";
  for (const SeedOutcome& failure : failures) {
    const std::string message = failure.nondeterminism.empty() ? first_line(failure.result.details) : failure.nondeterminism;
    xml += "  <testcase classname=\"weft." + name + "\" name=\"seed " + std::to_string(failure.seed) + "\">\n";
    xml += "    <failure type=\"" + std::string(model::to_string(failure.result.verdict)) + "\" message=\"" +
           xml_escape(message) + "\">" + xml_escape(replay_by_seed(request, program, failure.seed)) + "\n" +
           xml_escape(failure.result.details) + "</failure>\n  </testcase>\n";
  }
  const std::uint64_t passed = summary.executions - failures.size();
  xml += "  <testcase classname=\"weft." + name + "\" name=\"" + std::to_string(passed) + " seeds as expected (" +
         std::string(model::to_string(request.expect)) + ")\"/>\n";
  xml += "</testsuite>\n</testsuites>\n";

  write_file_whole(path, xml);
}

ProgressLine::ProgressLine(std::uint64_t planned)
    : enabled_(isatty(fileno(stderr)) != 0), planned_(planned), started_(now_seconds()), last_(0) {}

void ProgressLine::update(std::uint64_t done, std::uint64_t failures) {
  if (!enabled_) return;
  const double now = now_seconds();
  if (now - last_ < 0.2 && done != planned_) return;
  last_ = now;
  const double rate = done / std::max(now - started_, 1e-9);
  const double eta = rate > 0 ? (planned_ - done) / rate : 0;
  std::fprintf(stderr, "\r\033[Kseeds %llu/%llu, %.0f executions/s, %llu failure%s, ETA %.0fs",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(planned_), rate,
               static_cast<unsigned long long>(failures), failures == 1 ? "" : "s", eta);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace weft::sim
