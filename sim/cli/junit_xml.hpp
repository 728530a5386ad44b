#pragma once
// The pieces of XML that a sweep's JUnit report (junit_report.hpp) and an exploration's
// (explore_output.hpp) share, so that CI reads both alike: a <testsuite> named "weft VERB
// SCENARIO" whose counts are of testcases, a failing <testcase> per finding signature (named by
// it, with the file and line it names first, and a <failure> whose type is the verdict, whose
// message is the first line of what happened, and whose text is the command that replays it,
// then all of what happened), and the <error> testcase of a run that stopped before its end, so
// that a CI timeout never reads as green. Every text given is escaped here; names are given raw.

#include <cstdint>
#include <string>

#include "sim/engine/simulation.hpp"

namespace weft::sim {

// `<testsuite name="weft VERB SCENARIO" tests=... failures=... errors=... time=...>`, after the
// XML declaration and <testsuites>.
std::string junit_suite_opening(const std::string& verb, const std::string& scenario, std::uint64_t tests,
                                std::uint64_t failures, std::uint64_t errors, double seconds);
// `</testsuite></testsuites>`.
std::string junit_suite_closing();

// A finding's testcase up to its <failure> included, without its closing tag (the caller adds
// a <system-out>, then `</testcase>`). `message`: one line, the first of what happened, or why
// it is a failure when the result does not say.
std::string junit_failure_opening(const std::string& scenario, const std::string& signature, double seconds,
                                  const ExecutionResult& result, const std::string& message,
                                  const std::string& reproduce);
// A testcase that passed, whole; with `out`, a <system-out> that holds it.
std::string junit_passed(const std::string& scenario, const std::string& name, const std::string& out = "");
// A testcase that failed with no execution to show: `type` and `message` (one line) name why.
std::string junit_failed(const std::string& scenario, const std::string& name, const std::string& type,
                         const std::string& message);
// The error testcase of a run that stopped early: `name` ("incomplete: 1200 of 10000 seeds run")
// and `note`, why, as message and text.
std::string junit_incomplete(const std::string& scenario, const std::string& name, const std::string& note);

}  // namespace weft::sim
