// Races explained down to the line that must move, on real races weft finds: the early reuse of
// a receive buffer (a capacity semaphore that starts at two), a capacity signal one line too
// early in a bidirectional kernel, and a DMA's target loaded before waiting for it.
#include "explain_test_support.hpp"

using namespace weft;
using testing::kernel_line;
using testing::short_line;

TEST_CASE("the early-reuse race names the capacity signal that sends one unit too many, and the wait to move it after",
          "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/ring_all_gather_early_reuse_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::string file = "ring_all_gather_double_buffered.cpp";
  const std::string surplus = kernel_line(file, "core.signal(capacity, core.param(\"early_reuse\")");
  const std::string forward =
      kernel_line(file, "core.dma_start(buf[k % 2], buf[(k + 1) % 2], recv, send, right).wait()");
  const std::string freed = kernel_line(file, "if (k + 2 < n) core.signal(capacity");
  for (std::uint64_t from : {0u, 10u, 20u}) {
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race, from);
    const sim::Explanation explanation = sim::explain(simulation, race);
    const std::string text = testing::all_text(explanation);
    INFO(race.details << "\n" << text);
    CHECK(explanation.title == "why they are unordered");
    REQUIRE_FALSE(explanation.fixes.empty());
    // The line that must change: the capacity signal before the loop, to move after the wait
    // that completes the DMA reading the buffer it frees.
    CHECK(explanation.fixes[0].line == surplus);
    CHECK(explanation.fixes[0].text.find("move d") == 0);
    CHECK(explanation.fixes[0].text.find("'capacity' at " + short_line(surplus)) != std::string::npos);
    CHECK(text.find("the signal of semaphore 2003 'capacity' by d") != std::string::npos);
    CHECK(text.find("where the chain breaks:") != std::string::npos);
    // When the chain's wait took the second of the two units, the signal it should have taken
    // (the one after the buffer is free again) is named too.
    if (text.find("unit 2 of 2") != std::string::npos && explanation.fixes.size() > 1)
      CHECK(explanation.fixes[1].text.find("sends at " + short_line(freed)) != std::string::npos);
    if (explanation.fixes[0].text.find("after its wait") != std::string::npos)
      CHECK(explanation.fixes[0].text.find("after its wait at " + short_line(forward)) != std::string::npos);
    // The chain runs from the early signal to the racing access, for the timeline.
    REQUIRE(explanation.chain.size() >= 2);
    CHECK(explanation.chain.front().line == surplus);
    CHECK(explanation.chain.front().what.find("signal") == 0);
  }
}

TEST_CASE("a capacity signal one line early in a bidirectional kernel is moved after the DMA's wait", "[explain]") {
  const sim::Request request =
      testing::scenario_request("scenarios/ring_all_reduce_bidirectional_early_capacity_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::string file = "ring_all_reduce_bidirectional.cpp";
  const std::string early = kernel_line(file, "if (early && again) core.signal(capacity");
  const std::string wait = kernel_line(file, "dma.wait();");
  int moved_after_the_wait = 0;
  for (std::uint64_t from : {0u, 5u, 10u, 15u}) {
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race, from);
    const sim::Explanation explanation = sim::explain(simulation, race);
    INFO(race.details << "\n" << testing::all_text(explanation));
    REQUIRE_FALSE(explanation.fixes.empty());
    CHECK(explanation.fixes[0].line == early);
    if (explanation.fixes[0].text.find("after its wait at " + short_line(wait)) != std::string::npos)
      ++moved_after_the_wait;
  }
  CHECK(moved_after_the_wait >= 2);  // the rest: the race came before the core reached that wait
}

TEST_CASE("a DMA's target loaded before waiting: the load must wait for the DMA", "[explain]") {
  const sim::Request request =
      testing::scenario_request("scenarios/dma_read_before_wait_race.toml", {"dma.execution=async"});
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::string load = kernel_line("race_examples.cpp", "core.load(");
  for (std::uint64_t from : {0u, 30u}) {
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race, from);
    const sim::Explanation explanation = sim::explain(simulation, race);
    INFO(race.details << "\n" << testing::all_text(explanation));
    REQUIRE(explanation.fixes.size() == 1);
    CHECK(explanation.fixes[0].line == load);
    CHECK(explanation.fixes[0].text.find("load at " + short_line(load) + " after a wait for DMA") != std::string::npos);
  }
}

TEST_CASE("two cores that never synchronise: the later one must wait for a signal", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/two_cores_one_output_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  INFO(race.details << "\n" << testing::all_text(explanation));
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.why[1].find("hears nothing from") != std::string::npos);
  CHECK(explanation.fixes[0].text.find("wait, before line") != std::string::npos);
}
