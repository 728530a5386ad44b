// A --keep-going sweep streams its failures (stdout, JSON lines, JUnit) instead of keeping them:
// its peak memory does not grow with the number of failing seeds.

#include <catch2/catch.hpp>

#include <cstdlib>

#include "weft_process.hpp"

using weft::testing::file_text;
using weft::testing::fresh_path;
using weft::testing::WeftProcess;

namespace {

// The peak memory (KiB) of a keep-going sweep in which every seed of 0..last fails.
long peak_of_failing_sweep(std::uint64_t last) {
  const auto jsonl = fresh_path("memory.jsonl");
  const auto junit = fresh_path("memory.xml");
  std::vector<std::string> environment;
#if defined(WEFT_SANITIZE_ADDRESS)
  // ASan keeps freed memory in quarantine (up to 256 MiB), which would grow with the work done.
  const char* options = std::getenv("ASAN_OPTIONS");
  environment.push_back("ASAN_OPTIONS=" + (options && *options ? std::string(options) + ":" : "") +
                        "quarantine_size_mb=0");
#endif
  WeftProcess sweep({"sweep", "scenarios/two_cores_one_output_race.toml", "--seeds", "0.." + std::to_string(last),
                     "--expect", "ok", "--keep-going", "--shrink-budget", "0", "--jsonl", jsonl, "--junit", junit},
                    environment);
  const auto ended = sweep.wait();
  CHECK(ended.status == 1);
  // One signature: one failing testcase, which lists the first 1000 seeds and counts the rest.
  const std::string xml = file_text(junit);
  CHECK(xml.find("failures=\"1\"") != std::string::npos);
  CHECK(xml.find("<system-out>" + std::to_string(last + 1) + " seeds: 0, 1, 2, ") != std::string::npos);
  CHECK(xml.find(", 999" + (last > 999 ? " and " + std::to_string(last - 999) + " more" : "") + "</system-out>") !=
        std::string::npos);
  return ended.peak_kib;
}

}  // namespace

TEST_CASE("A keep-going sweep's memory stays flat however many seeds fail", "[cli][sweep]") {
  const long few = peak_of_failing_sweep(999);
  const long many = peak_of_failing_sweep(11'999);
  // Kept in memory, 11,000 more failures (a report, a JSON line and a JUnit <failure> each,
  // some 3 KiB) would add over 30 MiB.
  CAPTURE(few, many);
  CHECK(many - few < 4 * 1024);
}
