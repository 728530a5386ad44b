#include "sim/cli/junit_xml.hpp"

#include "sim/cli/signature.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

// " file=\"ring.cpp\" line=\"30\"" for the place the signature names first, if it names one.
std::string location(const ExecutionResult& result) {
  const model::FailureSite* site = signature_site(result);
  if (site == nullptr || site->line.line <= 0) return "";
  return " file=\"" + xml_escape(std::string(model::file_name(site->line))) + "\" line=\"" +
         std::to_string(site->line.line) + "\"";
}

std::string testcase_opening(const std::string& scenario, const std::string& name) {
  return "  <testcase classname=\"weft." + xml_escape(scenario) + "\" name=\"" + xml_escape(name) + "\"";
}

// A testcase holding one element (<failure> or <error>) whose message and text are `note`.
std::string testcase_with(const std::string& scenario, const std::string& name, const std::string& element,
                          const std::string& type, const std::string& note) {
  const std::string text = xml_escape(note);
  return testcase_opening(scenario, name) + ">\n    <" + element + " type=\"" + xml_escape(type) + "\" message=\"" +
         text + "\">" + text + "</" + element + ">\n  </testcase>\n";
}

}  // namespace

std::string junit_suite_opening(const std::string& verb, const std::string& scenario, std::uint64_t tests,
                                std::uint64_t failures, std::uint64_t errors, double seconds) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"weft " + verb + " " +
         xml_escape(scenario) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"" + std::to_string(errors) + "\" time=\"" + std::to_string(seconds) + "\">\n";
}

std::string junit_suite_closing() { return "</testsuite>\n</testsuites>\n"; }

std::string junit_failure_opening(const std::string& scenario, const std::string& signature, double seconds,
                                  const ExecutionResult& result, const std::string& message,
                                  const std::string& reproduce) {
  return testcase_opening(scenario, signature) + " time=\"" + std::to_string(seconds) + "\"" + location(result) +
         ">\n    <failure type=\"" + std::string(model::to_string(result.verdict)) + "\" message=\"" +
         xml_escape(message) + "\">" + xml_escape(reproduce) + "\n" + xml_escape(result.details) + "</failure>\n";
}

std::string junit_passed(const std::string& scenario, const std::string& name, const std::string& out) {
  if (out.empty()) return testcase_opening(scenario, name) + "/>\n";
  return testcase_opening(scenario, name) + ">\n    <system-out>" + xml_escape(out) + "</system-out>\n  </testcase>\n";
}

std::string junit_failed(const std::string& scenario, const std::string& name, const std::string& type,
                         const std::string& message) {
  return testcase_with(scenario, name, "failure", type, message);
}

std::string junit_incomplete(const std::string& scenario, const std::string& name, const std::string& note) {
  return testcase_with(scenario, name, "error", "incomplete", note);
}

}  // namespace weft::sim
