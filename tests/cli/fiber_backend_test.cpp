// The boost_fiber backend against the default context backend (scheduler/fiber/fiber_backend.hpp): the
// weft scheduler makes every decision on both, so every run must be byte-identical. For each
// scenario file that is not hostile (the correct ones and the buggy ones: deadlock, races, wrong
// result, leak, out of bounds, DMA in flight), several seeds in each DMA mode give the same
// schedule string, the same report (as `weft run` prints it) and the same --trace-text listing.
// The hostile kernels that end a fiber without finishing it (stack overflow, watchdog, swallowed
// teardown) give the same reports too.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "scenarios/registry.hpp"
#include "sim/cli/report.hpp"
#include "sim/request/request.hpp"
#include "sim/cli/trace_output.hpp"
#include "sim/trace/recorder.hpp"
#include "sim/trace/text_trace.hpp"

namespace weft::sim {
namespace {

using scheduler::FiberBackend;
using testing::file_text;

const ScenarioRegistry& registry() {
  static const auto scenarios = scenarios::builtin_scenarios();
  return scenarios;
}

// The scenario files, hostile ones left out (tested below), in name order.
std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path{WEFT_SOURCE_DIR} / "scenarios"))
    if (entry.path().extension() == ".toml" && !entry.path().stem().string().starts_with("hostile_"))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The DMA modes to run a file in: every one, unless the file pins one (as tests/CMakeLists.txt).
std::vector<std::string> modes_of(const std::filesystem::path& file) {
  if (file_text(file).find("[dma]") != std::string::npos) return {""};
  return {"async", "on_wait", "eager"};
}

Request request_for(const std::filesystem::path& file, const std::string& mode) {
  RequestArguments arguments;
  arguments.scenario = file.string();
  if (!mode.empty()) arguments.sets.push_back("dma.execution=" + mode);
  return resolve_request(arguments, registry());
}

struct Outcome {
  std::string verdict;
  std::string schedule;
  std::string report;  // as `weft run` prints it
  std::string trace;   // as --trace-text writes it
};

// What `weft run` makes of the request at `seed` (sim/cli/commands.cpp), on `backend`.
Outcome run_on(FiberBackend backend, const Request& request, std::uint64_t seed) {
  Config config = request.config;
  config.scheduler.fiber_backend = backend;
  Simulation simulation(config, *request.scenario, request.params);
  TraceRecorder recorder(config.machine.devices(), config.machine.cores_per_device);
  const ExecutionResult result = simulation.run_seed(seed, &recorder);
  return {std::string(model::to_string(result.verdict)), scheduler::encode(result.schedule),
          format_report(request, result, "weft", seed, scheduler::encode(result.schedule)),
          text_trace(recorder, trace_header(request, result, "weft", seed, scheduler::encode(result.schedule)))};
}

void check_same(const Request& request, std::uint64_t seed) {
  const Outcome context = run_on(FiberBackend::context, request, seed);
  const Outcome boost = run_on(FiberBackend::boost_fiber, request, seed);
  INFO(context.report);
  CHECK(boost.verdict == context.verdict);
  CHECK(boost.schedule == context.schedule);
  CHECK(boost.report == context.report);
  CHECK(boost.trace == context.trace);
}

TEST_CASE("Both fiber backends give byte-identical schedules, reports and traces for every scenario file",
          "[cli][fiber_backend]") {
  std::vector<std::string> verdicts;
  for (const auto& file : scenario_files()) {
    for (const auto& mode : modes_of(file)) {
      const Request request = request_for(file, mode);
      for (std::uint64_t seed : {0u, 1u, 2u, 7u}) {
        CAPTURE(file.filename().string(), mode, seed);
        check_same(request, seed);
      }
      verdicts.push_back(std::string(model::to_string(request.expect)));
    }
  }
  // The files cover correct and buggy kernels alike.
  for (const char* verdict : {"ok", "deadlock", "data_race", "wrong_result", "semaphore_leak", "out_of_bounds"}) {
    CAPTURE(verdict);
    CHECK(std::count(verdicts.begin(), verdicts.end(), verdict) > 0);
  }
}

TEST_CASE("Both fiber backends give the same reports for hostile kernels whose fibers are abandoned",
          "[cli][fiber_backend][hardening]") {
  const std::filesystem::path scenarios{std::string{WEFT_SOURCE_DIR} + "/scenarios"};
  // A stack overflow in the kernel's own code, a watchdog interrupt (one seed: each waits for
  // it), a teardown swallowed by every core, and a kernel that throws while the others wait.
  for (const auto& [name, seeds] : std::vector<std::pair<std::string, int>>{
           {"hostile_recursion", 3}, {"hostile_spin", 1}, {"hostile_swallow_teardown", 3}, {"hostile_throw", 3}}) {
    const Request request = request_for(scenarios / (name + ".toml"), "");
    for (int seed = 0; seed < seeds; ++seed) {
      CAPTURE(name, seed);
      const Outcome boost = run_on(FiberBackend::boost_fiber, request, static_cast<std::uint64_t>(seed));
      CHECK(boost.verdict == "kernel_error");
      check_same(request, static_cast<std::uint64_t>(seed));
    }
  }
}

TEST_CASE("weft run with scheduler.fiber_backend set to boost_fiber prints the same report and trace",
          "[cli][fiber_backend]") {
  const std::vector<std::string> run{"run",          "scenarios/ring_wrong_direction_race.toml",
                                     "--set",        "dma.execution=on_wait",
                                     "--seed",       "3",
                                     "--trace-text", "-"};
  const auto context = testing::run_weft(run);
  auto with_set = run;
  with_set.insert(with_set.begin() + 4, {"--set", "scheduler.fiber_backend=boost_fiber"});
  const auto boost = testing::run_weft(with_set);
  INFO(boost.out << boost.err);
  CHECK(boost.status == context.status);
  CHECK(boost.err == context.err);
  // The report and the trace name the options as typed, to reproduce the run: all else is equal.
  std::string output = boost.out;
  const std::string option = " --set scheduler.fiber_backend=boost_fiber";
  int named = 0;
  for (auto at = output.find(option); at != std::string::npos; at = output.find(option, at), ++named)
    output.erase(at, option.size());
  CHECK(named >= 2);
  CHECK(output == context.out);
}

}  // namespace
}  // namespace weft::sim
