#include "sim/cli/junit_report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/cli/report.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"
#include "sim/trace/wellformed_text.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

[[noreturn]] void cannot_write(const std::string& path) {
  throw ConfigError(path, 0, 0, "", std::string("cannot write the JUnit report: ") + std::strerror(errno));
}

// A file in the report's folder that no other process can see: created, then unlinked at once.
int open_scratch(const std::string& path) {
  const std::string name = path + ".cases.tmp" + std::to_string(::getpid());
  const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) cannot_write(path);
  ::unlink(name.c_str());
  return fd;
}

// Copies the scratch file's testcases into the report.
void copy_scratch(int scratch, const std::string& path, WholeFile& out) {
  if (::lseek(scratch, 0, SEEK_SET) != 0) cannot_write(path);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(scratch, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) cannot_write(path);
    if (got == 0) return;
    out.write(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

}  // namespace

JunitReport::JunitReport(std::string path, const Request& request, std::string program)
    : path_(std::move(path)), request_(request), program_(std::move(program)), suite_(xml_escape(request.scenario->name)) {
  scratch_ = open_scratch(path_);
}

JunitReport::~JunitReport() {
  if (scratch_ >= 0) ::close(scratch_);
}

void JunitReport::add_failure(const SeedOutcome& failure) {
  const std::string message = failure.nondeterminism.empty() ? first_line(failure.result.details) : failure.nondeterminism;
  const std::string testcase =
      "  <testcase classname=\"weft." + suite_ + "\" name=\"seed " + std::to_string(failure.seed) + "\">\n" +
      "    <failure type=\"" + std::string(model::to_string(failure.result.verdict)) + "\" message=\"" +
      xml_escape(message) + "\">" + xml_escape(replay_by_seed(request_, program_, failure.seed)) + "\n" +
      xml_escape(failure.result.details) + "</failure>\n  </testcase>\n";
  if (!write_all(scratch_, testcase)) cannot_write(path_);
  ++failures_;
}

void JunitReport::finish(const SweepSummary& summary) {
  const bool complete = summary.complete();
  WholeFile out(path_);
  out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"weft sweep " + suite_ +
            "\" tests=\"" + std::to_string(summary.executions + (complete ? 0 : 1)) + "\" failures=\"" +
            std::to_string(failures_) + "\" errors=\"" + (complete ? "0" : "1") + "\" time=\"" +
            std::to_string(summary.seconds) + "\">\n");
  copy_scratch(scratch_, path_, out);
  const std::uint64_t passed = summary.executions - failures_;
  out.write("  <testcase classname=\"weft." + suite_ + "\" name=\"" + std::to_string(passed) + " seeds as expected (" +
            std::string(model::to_string(request_.expect)) + ")\"/>\n");
  if (!complete) {
    const std::string note = xml_escape(incomplete_note(summary));
    out.write("  <testcase classname=\"weft." + suite_ + "\" name=\"incomplete: " + std::to_string(summary.executions) +
              " of " + std::to_string(summary.planned) + " seeds run\">\n    <error type=\"incomplete\" message=\"" +
              note + "\">" + note + "</error>\n  </testcase>\n");
  }
  out.write("</testsuite>\n</testsuites>\n");
  out.commit();
}

}  // namespace weft::sim
