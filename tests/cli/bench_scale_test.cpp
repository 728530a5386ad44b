// `weft bench --scale-devices N`: a scale run too large for this machine is refused at once,
// saying its estimate and the largest N that fits (4096, the largest the option takes, printed
// nothing for 400 s); --quick keeps a --scale-devices that is given (it was silently ignored);
// on a terminal a progress line says what is being measured.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/scale_estimate.hpp"
#include "model/host_memory.hpp"
#include "terminal.hpp"
#include "weft_process.hpp"

using weft::testing::Streams;
using weft::testing::Terminal;
using weft::testing::WeftProcess;

TEST_CASE("The scale estimate follows the measured workload", "[cli][bench]") {
  const auto measured = weft::bench::estimate_scale_run(256);
  CHECK(measured.cores == 1024);
  CHECK(measured.steps == 1572864);        // docs/performance.md's scale_large_steps
  CHECK(measured.bytes >= 1024 * 298372);  // at least the lowest peak measured (docs/performance/executions.md)
  CHECK(measured.bytes < 2 * 1024 * 298372);
}

TEST_CASE("bench refuses a scale run this machine cannot hold, before measuring anything", "[cli][bench][hardening]") {
  const auto budget = weft::model::host_budget_bytes({});
  if (weft::bench::estimate_scale_run(4096).bytes <= budget) {
    WARN("this machine would hold 4096 devices x 4 cores: not tried");
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  WeftProcess weft({"bench", "--scale-devices", "4096"});
  CHECK(weft.wait().status == 2);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  INFO(weft.err());
  CHECK(weft.err().rfind("weft: --scale-devices: 4096 devices x 4 cores (16384 cores, 402653184 steps an execution) "
                         "would take about ",
                         0) == 0);
  CHECK(weft.err().find(" GB of memory, more than the ") != std::string::npos);
  CHECK(weft.err().find("; at most --scale-devices ") != std::string::npos);
  CHECK(weft.out().empty());
}

TEST_CASE("bench --quick runs the scale run of a --scale-devices given", "[cli][bench]") {
  WeftProcess weft({"bench", "--quick", "--scale-devices", "48"});
  REQUIRE(weft.wait().status == 0);
  const auto figures = nlohmann::json::parse(weft.out());
  CHECK(figures["scale_large_cores"] == 192);
  CHECK(figures["scale_small_cores"] == 12);
  CHECK(figures["scale_large_steps"] == 24 * 48 * 48);
  CHECK(weft.err().empty());  // no progress line but on a terminal
}

TEST_CASE("bench draws a progress line on a terminal", "[cli][bench]") {
  const Terminal terminal;
  WeftProcess weft({"bench", "--quick"}, Streams{"/dev/null", terminal.path()});
  const std::string drawn = terminal.read_for(1500);
  weft.signal(SIGKILL);
  weft.wait();
  INFO(drawn);
  CHECK(drawn.find("\r\033[Kbench: 1/8 large scale run: 32 devices x 4 cores, 24576 steps an execution, ") !=
        std::string::npos);
  CHECK(drawn.find("bench: 2/8 small scale run: 2 devices x 4 cores") != std::string::npos);
}
