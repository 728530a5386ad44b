// A wait that passed on another copy's bytes (sim/explain/shared_semaphore.hpp): on the torus
// all-reduce whose column wrap-around link counts both directions on one semaphore, the race is
// explained by the wait that took the backward copy's bytes, and the fix gives the two copies
// semaphores of their own. Races whose waits did their own copy's job are told as before.
#include "explain_test_support.hpp"

using namespace weft;
using testing::kernel_line;
using testing::short_line;

TEST_CASE(
    "a wait that took the other direction's bytes is named, with one fix: both copies given semaphores of their own",
    "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/torus_all_reduce_wrap_semaphore_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::string file = "torus_all_reduce.cpp";
  const std::string forward = kernel_line(file, "core.dma_start(forward_source,");
  const std::string backward = kernel_line(file, "core.dma_start(backward_source,");
  const std::string first_wait = kernel_line(file, "core.wait(ring.forward_recv[k], bytes);");
  for (std::uint64_t from : {0u, 10u, 20u}) {
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race, from);
    const sim::Explanation explanation = sim::explain(simulation, race);
    const std::string text = testing::all_text(explanation);
    INFO(race.details << "\n" << text);
    CHECK(text.find("'s wait at " + short_line(first_wait)) != std::string::npos);
    CHECK(text.find("'s write signals, took ") != std::string::npos);
    CHECK(text.find("a DMA semaphore counts bytes, whichever copy brought them") != std::string::npos);
    REQUIRE(explanation.fixes.size() == 1);  // not also a move of the entry barrier's signal
    CHECK(explanation.fixes[0].line == forward);
    CHECK(explanation.fixes[0].text.find("give DMA ") == 0);
    CHECK(explanation.fixes[0].text.find("(started at " + short_line(forward) + ") and DMA ") != std::string::npos);
    CHECK(explanation.fixes[0].text.find("(started at " + short_line(backward) + ") DMA semaphores of their own") !=
          std::string::npos);
  }
}

TEST_CASE("races whose waits took their own copies' bytes are not told as a shared semaphore", "[explain]") {
  for (const char* scenario :
       {"scenarios/ring_all_gather_early_reuse_race.toml", "scenarios/dma_read_before_wait_race.toml",
        "scenarios/ring_all_reduce_bidirectional_early_capacity_race.toml"}) {
    const sim::Request request = testing::scenario_request(scenario);
    sim::Simulation simulation(request.config, *request.scenario, request.params);
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
    const std::string text = testing::all_text(sim::explain(simulation, race));
    INFO(scenario << "\n" << text);
    CHECK(text.find("whichever copy brought them") == std::string::npos);
    CHECK(text.find("semaphores of their own") == std::string::npos);
  }
}
