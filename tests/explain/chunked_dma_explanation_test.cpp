// Failures of DMAs whose write phase lands in chunks (dma.chunk_bytes), explained: the wait that
// copies of different sizes on one semaphore let through before a chunk landed, and how much of
// a DMA in flight, or of one a blocked core is owed, had landed.
#include <regex>

#include "explain_test_support.hpp"
#include "sim/explain/phrases.hpp"
#include "sim/api/core.hpp"
#include "sim/api/host.hpp"

using namespace weft;
using testing::kernel_line;
using testing::short_line;

TEST_CASE("the chunked race names the wait that A's bytes and B's first chunks let through, and the fix", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/shared_semaphore_sizes_chunked_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::string file = "shared_semaphore_sizes.cpp";
  const std::string wait = kernel_line(file, "copy_b.wait();");
  const std::string start_b = kernel_line(file, "auto copy_b = core.dma_start(");
  for (std::uint64_t from : {0u, 7u, 30u}) {
    const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race, from);
    const sim::Explanation explanation = sim::explain(simulation, race);
    const std::string text = testing::all_text(explanation);
    INFO(race.details << "\n" << text);
    // The race is with B's last chunk, its last row of 256 floats.
    CHECK(race.details.find("DMA write [15:16, 0:256] by DMA 1") != std::string::npos);
    CHECK(text.find("DMA 1's write of [15:16, 0:256]") != std::string::npos);
    CHECK(text.find("device 0 core 0's wait at " + short_line(wait)) != std::string::npos);
    CHECK(text.find("took 16384 units of semaphore 2000") != std::string::npos);
    CHECK(text.find("15360 from the chunks of DMA 1's write that had landed, 1024 from DMA 0's write") !=
          std::string::npos);
    CHECK(text.find("before DMA 1's write of [15:16, 0:256] landed") != std::string::npos);
    REQUIRE_FALSE(explanation.fixes.empty());
    CHECK(explanation.fixes[0].line == start_b);
    CHECK(explanation.fixes[0].text.find("give DMA 1 (started at " + short_line(start_b) +
                                         ") a DMA semaphore of its own") == 0);
  }
}

TEST_CASE("a race with a DMA that lands whole tells no chunk story", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/dma_read_before_wait_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const std::string text = testing::all_text(sim::explain(simulation, race));
  INFO(text);
  CHECK(text.find("chunk") == std::string::npos);
  CHECK(text.find("counts bytes") == std::string::npos);
}

TEST_CASE("a DMA in flight with some chunks landed says how many of its bytes landed", "[explain]") {
  const sim::Request request =
      testing::scenario_request("scenarios/dma_never_waited.toml", {"dma.execution=async", "dma.chunk_bytes=1024"});
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const std::regex landed("read at step \\d+, (1024|2048|3072) of its 4096 bytes landed; device \\d core 0 returned");
  int partly = 0;
  for (std::uint64_t from = 0; from < 10; ++from) {
    const sim::ExecutionResult in_flight = testing::first_with(simulation, model::Verdict::dma_in_flight, from);
    const std::string text = testing::all_text(sim::explain(simulation, in_flight));
    INFO(in_flight.details << "\n" << text);
    const bool told = std::regex_search(text, landed);
    CHECK(told == (in_flight.details.find(" bytes landed)") != std::string::npos));
    partly += told ? 1 : 0;
  }
  CHECK(partly > 0);
}

TEST_CASE("a deadlock names a DMA into the blocked core that landed only some chunks", "[explain]") {
  // One core: a 4 KiB copy in 1 KiB chunks, a wait for one chunk's bytes (under on_wait only the
  // chunks a waiter needs land), then a wait nobody will satisfy.
  sim::ScenarioDefinition scenario;
  scenario.name = "partly_landed";
  scenario.setup = [](sim::Host& host) { host.hbm<float>("x", {4, 256}); };
  scenario.kernel = [](sim::Core& core) {
    auto staged = core.vmem<float>({4, 256});
    auto sem = core.dma_semaphore();
    core.dma_start(core.hbm<float>("x"), staged, sem);
    core.wait(sem, 1024);
    core.wait(core.barrier_semaphore(), 1);
  };
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.dma_execution = model::DmaExecution::on_wait;
  config.machine.dma_chunk_bytes = 1024;
  sim::Simulation simulation(config, scenario, scenario.params);
  const sim::ExecutionResult deadlock = simulation.run_seed(0);
  REQUIRE(deadlock.verdict == model::Verdict::deadlock);
  const std::string text = testing::all_text(sim::explain(simulation, deadlock));
  INFO(deadlock.details << "\n" << text);
  CHECK(deadlock.details.find("(write phase pending, 1024 of 4096 bytes landed)") != std::string::npos);
  CHECK(text.find("DMA 0 (started by device 0 core 0 at ") != std::string::npos);
  CHECK(text.find(") has not landed (only 1024 of its 4096 bytes landed)") != std::string::npos);
}

TEST_CASE("A wait that took a chunk's units names it as a chunk of the DMA's write", "[explain]") {
  sim::TraceRecorder recorder(1, 1);
  sim::TraceEvent start;
  start.kind = sim::TraceEvent::Kind::dma_start;
  start.dma = 1;
  start.amount = 4096;
  recorder.on_event(start);
  sim::TraceEvent chunk;
  chunk.kind = sim::TraceEvent::Kind::dma_write;
  chunk.actor = {scheduler::Actor::Kind::dma_write, 1};
  chunk.dma = 1;
  chunk.step = 7;
  chunk.semaphore_id = 2000;
  chunk.target_core = 0;
  chunk.amount = 1024;
  recorder.on_event(chunk);
  chunk.step = 8;
  chunk.amount = 3072;  // the rest: the write phase's last record, all of the copy landed
  recorder.on_event(chunk);
  const sim::Phrases words(recorder, "k.cpp:1");
  CHECK(words.signal(recorder.records()[1]) ==
        "the completion of a chunk of 1024 of the 4096 bytes of DMA 1's write (semaphore 2000, step 7)");
  CHECK(words.signal(recorder.records()[2]) ==
        "the completion of a chunk of 3072 of the 4096 bytes of DMA 1's write (semaphore 2000, step 8)");
  start.dma = 2;  // a write phase that lands whole
  recorder.on_event(start);
  chunk.dma = 2;
  chunk.amount = 4096;
  recorder.on_event(chunk);
  CHECK(words.signal(recorder.records()[4]) == "the completion of DMA 2's write (semaphore 2000, step 8)");
}
