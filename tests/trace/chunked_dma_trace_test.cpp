// Traces of DMAs whose write phase lands in chunks (dma.chunk_bytes): an event per chunk, with
// its rows and its bytes; the start's event keeps the whole copy; the recorder tells a DMA that
// landed from one that landed only some chunks, in every DMA mode.
#include <catch2/catch.hpp>

#include "scenarios/registry.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/trace/layout.hpp"
#include "sim/trace/recorder.hpp"

using namespace weft;
using Kind = sim::TraceEvent::Kind;

namespace {

sim::TraceEvent dma_event(Kind kind, std::uint64_t step, std::int64_t amount, const model::Rect& target) {
  sim::TraceEvent event;
  event.kind = kind;
  event.step = step;
  event.dma = 2;
  event.actor = {kind == Kind::dma_start ? scheduler::Actor::Kind::core : scheduler::Actor::Kind::dma_write, 2};
  event.target_rect = target;
  event.amount = amount;
  if (kind == Kind::dma_write) {
    event.semaphore_id = 2000;
    event.target_core = 0;
  }
  return event;
}

model::Rect rows(std::int64_t first, std::int64_t count) { return model::Rect{2, {first, 0}, {count, 4}}; }

}  // namespace

TEST_CASE("The recorder keeps every chunk of a write phase and marks the DMA landed at its last", "[trace]") {
  sim::TraceRecorder recorder(1, 1);
  recorder.on_event(dma_event(Kind::dma_start, 0, 48, rows(0, 3)));  // record 0
  recorder.on_event(dma_event(Kind::dma_read, 1, 48, rows(0, 3)));   // record 1
  recorder.on_event(dma_event(Kind::dma_write, 2, 16, rows(0, 1)));  // record 2
  recorder.on_event(dma_event(Kind::dma_write, 4, 16, rows(1, 1)));  // record 3
  const sim::TracedDma* dma = recorder.dma(2);
  REQUIRE(dma != nullptr);
  CHECK(dma->bytes == 48);
  CHECK(dma->landed == 32);
  CHECK(dma->write == sim::no_record);                               // a row still to land
  recorder.on_event(dma_event(Kind::dma_write, 5, 16, rows(2, 1)));  // record 4
  dma = recorder.dma(2);
  CHECK(dma->chunks == std::vector<std::size_t>{2, 3, 4});
  CHECK(dma->write == 4);
  CHECK(dma->landed == 48);
  // Each record comes after the DMA's one before it.
  CHECK(dma->before(1) == 0);
  CHECK(dma->before(2) == 1);
  CHECK(dma->before(4) == 3);
  CHECK(dma->before(0) == sim::no_record);
  // A racing access is found by its step and its chunk's rows.
  model::FailureSite site;
  site.who = {model::Accessor::Kind::dma, 2, true};
  site.step = 4;
  site.rect = rows(1, 1);
  CHECK(dma->record_of(recorder.records(), site) == 3);
  site.rect = rows(2, 1);
  CHECK(dma->record_of(recorder.records(), site) == sim::no_record);  // not at step 4: an access that failed
  // The chunks' signals wake a wait one by one.
  sim::TraceEvent wait;
  wait.kind = Kind::wait;
  wait.step = 6;
  wait.semaphore_id = 2000;
  wait.target_core = 0;
  wait.amount = 40;
  recorder.on_event(wait);
  const auto woken = recorder.woken_by(5);
  REQUIRE(woken.size() == 3);
  CHECK(woken[2].signal == 4);
  CHECK(woken[2].units == 8);
}

TEST_CASE("A chunked write phase is an event per chunk, in every DMA mode", "[trace]") {
  static const auto registry = scenarios::builtin_scenarios();
  const auto* scenario = sim::find_scenario(registry, "dma_read_before_wait");
  REQUIRE(scenario != nullptr);
  for (const auto mode : {model::DmaExecution::async, model::DmaExecution::on_wait, model::DmaExecution::eager}) {
    CAPTURE(static_cast<int>(mode));
    sim::Config config;
    config.machine.mesh = {1};
    config.machine.dma_execution = mode;
    config.machine.dma_chunk_bytes = 1024;  // 8 rows of 128 floats: 2 rows (1 KiB) a chunk
    sim::Simulation simulation(config, *scenario, scenario->params);
    sim::TraceRecorder recorder(1, 1);
    const sim::ExecutionResult result = simulation.run_seed(3, &recorder);
    INFO(result.details);
    REQUIRE(result.verdict == model::Verdict::ok);
    const auto& records = recorder.records();
    const sim::TracedDma* dma = recorder.dma(0);
    REQUIRE(dma != nullptr);
    const sim::TraceRecord& start = records[dma->start];
    CHECK(start.amount == 4096);
    CHECK(start.target_rect == (model::Rect{2, {0, 0}, {8, 128}}));
    REQUIRE(dma->chunks.size() == 4);
    CHECK(dma->write == dma->chunks.back());
    for (std::size_t k = 0; k < 4; ++k) {
      const sim::TraceRecord& chunk = records[dma->chunks[k]];
      CHECK(chunk.amount == 1024);
      CHECK(chunk.target_rect == (model::Rect{2, {2 * static_cast<std::int64_t>(k), 0}, {2, 128}}));
      if (mode == model::DmaExecution::eager) CHECK(chunk.step == start.step);  // inside the start, in order
      if (k > 0) CHECK(chunk.step >= records[dma->chunks[k - 1]].step);
    }
    // The wait for the copy's 4096 bytes took all four chunks.
    std::size_t wait = sim::no_record;
    for (std::size_t i = 0; i < records.size(); ++i)
      if (records[i].kind == Kind::wait) wait = i;
    REQUIRE(wait != sim::no_record);
    CHECK(recorder.woken_by(wait).size() == 4);
  }
}

// Eager chunks all land inside their DMA's start step: on the timeline they share the write's
// half of that step, one after the other, instead of each covering all of it.
TEST_CASE("An eager DMA's chunks share the write's half of its start step on the timeline", "[trace]") {
  static const auto registry = scenarios::builtin_scenarios();
  const auto* scenario = sim::find_scenario(registry, "dma_read_before_wait");
  REQUIRE(scenario != nullptr);
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.dma_execution = model::DmaExecution::eager;
  config.machine.dma_chunk_bytes = 1024;  // four chunks
  sim::Simulation simulation(config, *scenario, scenario->params);
  sim::TraceRecorder recorder(1, 1);
  const sim::ExecutionResult result = simulation.run_seed(3, &recorder);
  REQUIRE(result.verdict == model::Verdict::ok);
  sim::TraceHeader header;
  header.steps = result.steps;
  const sim::TraceLayout layout(recorder, header);
  const sim::TracedDma* dma = recorder.dma(0);
  REQUIRE(dma != nullptr);
  REQUIRE(dma->chunks.size() == 4);
  const double step = static_cast<double>(recorder.records()[dma->start].step);
  const sim::Slot& read = layout.slot(dma->read);
  CHECK(read.start == step);
  CHECK(read.width == 0.5);
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const sim::Slot& chunk = layout.slot(dma->chunks[k]);
    CHECK(chunk.lane == read.lane);
    CHECK(chunk.width == 0.125);
    CHECK(chunk.start == step + 0.5 + 0.125 * static_cast<double>(k));  // in order, none overlapping
  }
}
