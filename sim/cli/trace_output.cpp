#include "sim/cli/trace_output.hpp"

#include <fstream>

#include "sim/cli/report.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"
#include "sim/trace/chrome_json.hpp"
#include "sim/trace/html_timeline.hpp"
#include "sim/trace/text_trace.hpp"

namespace weft::sim {
namespace {

std::string configuring_options(const RequestArguments& arguments) {
  std::string text;
  if (arguments.config) text += " --config " + shell_quote(*arguments.config);
  for (const auto& set : arguments.sets) text += " --set " + shell_quote(set);
  if (arguments.expect) text += " --expect " + shell_quote(*arguments.expect);
  return text.empty() ? text : text.substr(1);
}

void write_file(const std::string& path, const std::string& option, const std::string& text) {
  try {
    write_file_whole(path, text);  // whole or not at all (whole_output.hpp)
  } catch (const std::runtime_error&) {
    throw ConfigError(path, 0, 0, "", "cannot write the " + option + " file");
  }
}

}  // namespace

TraceHeader trace_header(const Request& request, const ExecutionResult& result, const std::string& program,
                         std::optional<std::uint64_t> seed, const std::string& schedule_word,
                         const Explanation& explanation) {
  TraceHeader header;
  header.scenario = request.scenario->name;
  if (request.arguments.scenario != request.scenario->name) header.scenario += " (" + request.arguments.scenario + ")";
  header.description = request.description;
  header.machine = describe_machine(request.config);
  header.options = configuring_options(request.arguments);
  header.run = seed ? "seed " + std::to_string(*seed) : std::string("replayed schedule");
  header.schedule = scheduler::encode(result.schedule);
  header.verdict = model::to_string(result.verdict);
  header.expected = model::to_string(request.expect);
  header.details = result.details;
  header.reproduce =
      seed ? replay_by_seed(request, program, *seed) : replay_by_schedule(request, program, schedule_word);
  header.steps = result.steps;
  header.sites_blocked = result.verdict == model::Verdict::deadlock;
  header.sites = result.sites;
  header.explanation = format_explanation(explanation);
  for (const ChainLink& link : explanation.chain)
    if (link.record != no_record) header.chain.push_back(link.record);
  header.focus = explanation.focus;
  return header;
}

void write_traces(const TraceFiles& files, const TraceRecorder& recorder, const TraceHeader& header,
                  std::ostream& out) {
  if (files.json) write_file(*files.json, "--trace", chrome_trace_json(recorder, header));
  if (files.html) write_file(*files.html, "--html", html_timeline(recorder, header));
  if (!files.text) return;
  if (*files.text == "-") {
    out << "\n" << text_trace(recorder, header);
  } else {
    write_file(*files.text, "--trace-text", text_trace(recorder, header));
  }
}

}  // namespace weft::sim
