// Findings grouped by signature: what stays the same across seeds names a finding; a
// --keep-going sweep reports each signature once and counts the rest.
#include "cli_runner.hpp"

#include <fstream>
#include <sstream>

#include "sim/cli/signature.hpp"
#include "sweep_lines.hpp"

using weft::testing::run_weft;

namespace {

weft::model::FailureSite site(weft::model::Accessor::Kind kind, int index, int line, const std::string& what,
                              std::uint64_t step) {
  return {{kind, index, false}, step, {"kernel.cpp", line}, what, {}};
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("a finding's signature keeps the verdict, operation kinds and lines, not who, when or where",
          "[cli][sweep]") {
  using Kind = weft::model::Accessor::Kind;
  weft::sim::ExecutionResult one;
  one.verdict = weft::model::Verdict::data_race;
  one.sites = {site(Kind::dma, 18, 30, "DMA read [0:1, 0:8]", 122),
               site(Kind::dma, 29, 30, "DMA write [0:1, 0:8]", 179)};
  weft::sim::ExecutionResult other = one;  // another seed: other DMAs, steps, rows, and the write first
  other.sites = {site(Kind::dma, 7, 30, "DMA write [1:2, 0:8]", 90), site(Kind::dma, 3, 30, "DMA read [1:2, 0:8]", 95)};
  CHECK(weft::sim::finding_signature(one) == "data_race: DMA read at kernel.cpp:30, DMA write at kernel.cpp:30");
  CHECK(weft::sim::finding_signature(other) == weft::sim::finding_signature(one));
  other.sites[0].line.line = 31;
  CHECK(weft::sim::finding_signature(other) != weft::sim::finding_signature(one));

  weft::sim::ExecutionResult error;
  error.verdict = weft::model::Verdict::kernel_error;
  error.details = "device 2 core 0 signals semaphore 2000 by 0 (at hostile_api.cpp:63)\nmore";
  CHECK(weft::sim::finding_signature(error) == "kernel_error: at hostile_api.cpp:63");
  error.details = "the host check rejected the outputs: out[2] on device 0";
  error.verdict = weft::model::Verdict::wrong_result;
  CHECK(weft::sim::finding_signature(error) == "wrong_result");
}

TEST_CASE("a keep-going sweep reports one failure per signature and counts the rest, a verbose one every failure",
          "[cli][sweep]") {
  // Seeds fail at one of two lines (hostile_api.cpp:37 or :40), on whichever core allocates last.
  const std::vector<std::string> base{"sweep",
                                      "scenarios/hostile_semaphore_order.toml",
                                      "--seeds",
                                      "0..39",
                                      "--expect",
                                      "ok",
                                      "--keep-going",
                                      "--shrink-budget",
                                      "0"};
  auto jsonl_args = base;
  const auto jsonl = weft::testing::temp_file("signature.jsonl", "");
  jsonl_args.insert(jsonl_args.end(), {"--jsonl", jsonl});
  const auto grouped = run_weft(jsonl_args);
  CHECK(grouped.status == 1);
  CHECK(count_of(grouped.out, "\nverdict:") == 2);
  std::ostringstream lines;  // the JSON lines keep every failure
  lines << std::ifstream(jsonl).rdbuf();
  CHECK(weft::testing::failure_lines(lines.str()).size() == 40);
  // The findings block, up to the sweep's last line (which has a speed in it).
  const auto findings_of = [](const std::string& out) {
    const auto at = out.find("findings: ");
    return out.substr(at, out.rfind("sweep: ") - at);
  };
  const std::string findings = findings_of(grouped.out);
  CHECK(findings.rfind("findings: 2 distinct signatures in 40 failures\n", 0) == 0);
  CHECK(count_of(findings, " x kernel_error: at hostile_api.cpp:37\n") == 1);
  CHECK(count_of(findings, " x kernel_error: at hostile_api.cpp:40\n") == 1);

  auto verbose_args = base;
  verbose_args.push_back("--verbose");
  const auto verbose = run_weft(verbose_args);
  CHECK(count_of(verbose.out, "\nverdict:") == 40);
  CHECK(findings_of(verbose.out) == findings);
}
