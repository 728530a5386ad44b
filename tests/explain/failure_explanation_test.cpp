// Deadlocks, semaphore leaks and DMAs in flight explained: the wait-for graph of the blocked
// cores, where the leftover units were signalled, where the unwaited DMAs started.
#include "explain_test_support.hpp"

using namespace weft;
using testing::kernel_line;
using testing::short_line;

TEST_CASE("a barrier that waits for one signal too many: the wait-for graph and its cycles", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/barrier_deadlock.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult deadlock = testing::first_with(simulation, model::Verdict::deadlock);
  const sim::Explanation explanation = sim::explain(simulation, deadlock);
  const std::string text = testing::all_text(explanation);
  INFO(text);
  const std::string wait = kernel_line("right_permute.cpp", "core.wait(barrier");
  CHECK(explanation.title == "wait-for graph");
  // Every device waits at the barrier, short of one unit, on its two neighbours, both blocked.
  for (int device = 0; device < 4; ++device)
    CHECK(text.find("device " + std::to_string(device) + " core 0 waits at " + short_line(wait) +
                    " on barrier semaphore 0, cell of device " + std::to_string(device) +
                    " core 0: needs 3 units, holds 2") != std::string::npos);
  CHECK(text.find("signalled in this run by device 1 core 0") != std::string::npos);
  CHECK(text.find("blocked itself at " + short_line(wait)) != std::string::npos);
  CHECK(text.find("a cycle: device 0 core 0 -> device 1 core 0 -> device 0 core 0") != std::string::npos);
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == wait);
  CHECK(explanation.fixes[0].text.find("needs 3 but only 2 arrive") != std::string::npos);
}

TEST_CASE("a semaphore leak names the signal whose units nobody waited for", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/leftover_signal_leak.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult leak = testing::first_with(simulation, model::Verdict::semaphore_leak);
  const sim::Explanation explanation = sim::explain(simulation, leak);
  INFO(testing::all_text(explanation));
  const std::string extra =
      kernel_line("right_permute.cpp", "if (core.param(\"extra_signal\") != 0) core.signal(barrier, 1);");
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == extra);
  CHECK(explanation.why[0].find("units of the signal at " + short_line(extra) + " were never waited for, on 4 cells") !=
        std::string::npos);
  CHECK(explanation.focus.size() == 4);  // the four signals
}

TEST_CASE("a DMA never waited for: where it started, and that its core returned without waiting", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/dma_never_waited.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult in_flight = testing::first_with(simulation, model::Verdict::dma_in_flight);
  const sim::Explanation explanation = sim::explain(simulation, in_flight);
  INFO(testing::all_text(explanation));
  const std::string start = kernel_line("right_permute.cpp", "auto dma = core.dma_start(");
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == start);
  CHECK(explanation.why[0].find("started at " + short_line(start) + " and never waited for: DMA ") !=
        std::string::npos);
  CHECK(explanation.why[0].find("returned at step") != std::string::npos);
}

TEST_CASE("a DMA still in flight at the end of its buffer's scope: wait inside the scope", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/scoped_copy_late_wait_in_flight.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult in_flight = testing::first_with(simulation, model::Verdict::dma_in_flight);
  CHECK(in_flight.details.find("ends the scope of run_scoped at scoped_copy.cpp:") != std::string::npos);
  const sim::Explanation explanation = sim::explain(simulation, in_flight);
  INFO(testing::all_text(explanation));
  const std::string start = kernel_line("scoped_copy.cpp", "copy = core.dma_start(");
  const std::string scope = kernel_line("scoped_copy.cpp", "core.run_scoped(");
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == start);
  CHECK(explanation.fixes[0].text.find("inside the scope of run_scoped at " + short_line(scope) + ", before it ends") !=
        std::string::npos);
}

TEST_CASE("a failure with no explanation of its own gets none, and a replay that differs is said to", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/pipeline_off_by_one.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult out_of_bounds = testing::first_with(simulation, model::Verdict::out_of_bounds);
  CHECK(sim::explain(simulation, out_of_bounds).empty());

  const sim::Request race_request = testing::scenario_request("scenarios/two_cores_one_output_race.toml");
  sim::Simulation race_simulation(race_request.config, *race_request.scenario, race_request.params);
  sim::ExecutionResult race = testing::first_with(race_simulation, model::Verdict::data_race);
  race.details += " (changed)";  // as a kernel that is not deterministic would report it on replay
  const sim::Explanation differs = sim::explain(race_simulation, race);
  REQUIRE(differs.why.size() == 1);
  CHECK(differs.why[0].find("the kernel is not deterministic") != std::string::npos);
}

TEST_CASE("an over-wait on a core's own copy is no cycle: nothing more can arrive", "[explain]") {
  // A local copy of 4 KiB, waited for, then a wait for 4 KiB more on the same semaphore: the
  // only signaller of the cell is the waiting core's own DMA, which has landed.
  sim::ScenarioDefinition scenario;
  scenario.name = "over_wait";
  scenario.expect = model::Verdict::deadlock;
  scenario.kernel = [](sim::Core& core) {
    const auto source = core.vmem<float>({8, 128});
    const auto target = core.vmem<float>({8, 128});
    const sim::Semaphore sem = core.dma_semaphore();
    core.store(source, sim::Tile<float>::Zero(8, 128));
    core.dma_start(source, target, sem).wait();
    core.wait(sem, 4096);
  };
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 1;
  sim::Simulation simulation(config, scenario, {});
  const sim::ExecutionResult deadlock = testing::first_with(simulation, model::Verdict::deadlock);
  const std::string text = testing::all_text(sim::explain(simulation, deadlock));
  INFO(text);
  CHECK(text.find("a cycle:") == std::string::npos);
  CHECK(text.find("the waiting core itself") != std::string::npos);
  CHECK(text.find("needs 4096 bytes, holds 0") != std::string::npos);
  CHECK(text.find("can still arrive: nothing, from no one (no DMA into that cell is in flight") != std::string::npos);
  CHECK(text.find("4096 bytes more than arrived; this is an over-wait, not a cycle") != std::string::npos);
}

TEST_CASE("a wait whose signaller never reached its signal is not called an over-wait", "[explain]") {
  // Two devices, each waiting for the other's signal before sending its own: nobody signalled
  // either cell in this run, so what can still arrive is what a core sends once it gets there.
  sim::ScenarioDefinition scenario;
  scenario.name = "each_waits_first";
  scenario.expect = model::Verdict::deadlock;
  scenario.kernel = [](sim::Core& core) {
    const sim::Semaphore sem = core.semaphore();
    core.wait(sem, 1);
    core.signal(sem, 1, {.device = 1 - core.device_id()});
  };
  sim::Config config;
  config.machine.mesh = {2};
  config.machine.cores_per_device = 1;
  sim::Simulation simulation(config, scenario, {});
  const sim::ExecutionResult deadlock = testing::first_with(simulation, model::Verdict::deadlock);
  const std::string text = testing::all_text(sim::explain(simulation, deadlock));
  INFO(text);
  CHECK(text.find("nobody signalled that cell in this run") != std::string::npos);
  CHECK(text.find("can still arrive: only what a core that has not reached its signal in this run sends (the wait is 1 "
                  "unit short)") != std::string::npos);
  CHECK(text.find("over-wait") == std::string::npos);
}
