#include "sim/cli/junit_report.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sim/cli/aside_name.hpp"
#include "sim/cli/output_target.hpp"
#include "sim/cli/junit_xml.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/cli/whole_output.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

[[noreturn]] void cannot_write(const std::string& path) {
  throw ConfigError(path, 0, 0, "", std::string("cannot write the JUnit report: ") + std::strerror(errno));
}

// A file no other process can see: in the report's folder for a regular file (created, then
// unlinked at once); for a device or a FIFO, written in place, an anonymous file in memory
// (memfd): its folder (/dev) is no place for a file.
int open_scratch(const std::string& path) {
  const OutputTarget target = output_target(path);
  if (target.in_place) {
    const int fd = ::memfd_create("weft-junit-cases", MFD_CLOEXEC);
    if (fd < 0) cannot_write(path);
    return fd;
  }
  const std::string name = aside_name(target.path, ".cases.tmp" + std::to_string(::getpid()));
  const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) cannot_write(path);
  ::unlink(name.c_str());
  return fd;
}

// Copies `size` bytes of the scratch file from `at` into the report.
void copy_scratch(int scratch, std::uint64_t at, std::uint64_t size, const std::string& path, WholeFile& out) {
  char buffer[1 << 16];
  while (size > 0) {
    const ssize_t got = ::pread(scratch, buffer, std::min<std::uint64_t>(size, sizeof buffer), static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) cannot_write(path);
    out.write(std::string_view(buffer, static_cast<std::size_t>(got)));
    at += static_cast<std::uint64_t>(got);
    size -= static_cast<std::uint64_t>(got);
  }
}

// "3 seeds: 0, 4, 7", or "12000 seeds: 0, 1, ..., 999 and 11000 more".
std::string seed_list(std::uint64_t hit, const std::vector<std::uint64_t>& seeds) {
  std::string text = std::to_string(hit) + (hit == 1 ? " seed: " : " seeds: ");
  for (std::size_t at = 0; at < seeds.size(); ++at) text += (at == 0 ? "" : ", ") + std::to_string(seeds[at]);
  if (hit > seeds.size()) text += " and " + std::to_string(hit - seeds.size()) + " more";
  return text;
}

}  // namespace

JunitReport::JunitReport(std::string path, const Request& request, std::string program)
    : path_(std::move(path)), request_(request), program_(std::move(program)) {
  scratch_ = open_scratch(path_);
}

JunitReport::~JunitReport() {
  if (scratch_ >= 0) ::close(scratch_);
}

void JunitReport::add_failure(const SeedOutcome& failure, const std::string& signature) {
  ++failing_seeds_;
  const auto [found, fresh] = index_.try_emplace(signature, cases_.size());
  if (fresh) {
    const std::string message =
        failure.nondeterminism.empty() ? first_line(failure.result.details) : failure.nondeterminism;
    const std::string opening =
        junit_failure_opening(request_.scenario->name, signature, failure.seconds, failure.result, message,
                              replay_by_seed(request_, program_, failure.seed));
    if (!write_all(scratch_, opening)) cannot_write(path_);
    cases_.push_back({scratch_size_, opening.size(), 0, {}});
    scratch_size_ += opening.size();
  }
  Case& testcase = cases_[found->second];
  ++testcase.seeds_hit;
  if (testcase.seeds.size() < seeds_listed) testcase.seeds.push_back(failure.seed);
}

void JunitReport::finish(const SweepSummary& summary) {
  const bool complete = summary.complete();
  WholeFile out(path_);
  const std::string& scenario = request_.scenario->name;
  out.write(junit_suite_opening("sweep", scenario, cases_.size() + (complete ? 1 : 2), cases_.size(), complete ? 0 : 1,
                                summary.seconds));
  for (const Case& testcase : cases_) {
    copy_scratch(scratch_, testcase.opening_at, testcase.opening_size, path_, out);
    out.write("    <system-out>" + seed_list(testcase.seeds_hit, testcase.seeds) + "</system-out>\n  </testcase>\n");
  }
  const std::uint64_t passed = summary.executions - failing_seeds_;
  out.write(junit_passed(scenario, std::to_string(passed) + " seeds as expected (" +
                                       std::string(model::to_string(request_.expect)) + ")"));
  if (!complete)
    out.write(junit_incomplete(
        scenario,
        "incomplete: " + std::to_string(summary.executions) + " of " + std::to_string(summary.planned) + " seeds run",
        incomplete_note(summary)));
  out.write(junit_suite_closing());
  out.commit();
}

}  // namespace weft::sim
