// The recorder on hand-made events: which signal woke which wait (precise FIFO semantics per
// cell), DMA bookkeeping, and buffers copied by value.
#include <catch2/catch.hpp>

#include "sim/trace/recorder.hpp"

using weft::sim::TraceEvent;
using weft::sim::TraceRecorder;
using Kind = TraceEvent::Kind;

namespace {

TraceEvent semaphore_event(Kind kind, std::uint64_t step, std::uint32_t core, int semaphore, int cell,
                           std::int64_t amount) {
  TraceEvent event;
  event.kind = kind;
  event.step = step;
  event.actor = weft::scheduler::core_actor(core);
  event.semaphore_id = semaphore;
  event.target_core = cell;
  event.amount = amount;
  return event;
}

}  // namespace

TEST_CASE("a wait gets an edge from each signal whose units it consumed, in signal order", "[trace]") {
  TraceRecorder recorder(2, 1);
  recorder.on_event(semaphore_event(Kind::signal, 0, 1, 2000, 0, 2));  // record 0: 2 units
  recorder.on_event(semaphore_event(Kind::signal, 1, 1, 2000, 0, 1));  // record 1: 1 unit
  recorder.on_event(semaphore_event(Kind::signal, 2, 1, 2001, 0, 5));  // record 2: another semaphore
  recorder.on_event(semaphore_event(Kind::wait, 3, 0, 2000, 0, 1));    // record 3: takes 1 of record 0
  recorder.on_event(semaphore_event(Kind::wait, 4, 0, 2000, 0, 2));    // record 4: 1 of record 0, 1 of record 1

  const auto first = recorder.woken_by(3);
  REQUIRE(first.size() == 1);
  CHECK(first[0].signal == 0);
  CHECK(first[0].units == 1);
  const auto second = recorder.woken_by(4);
  REQUIRE(second.size() == 2);
  CHECK(second[0].signal == 0);
  CHECK(second[0].units == 1);
  CHECK(second[1].signal == 1);
  CHECK(second[1].units == 1);
  CHECK(recorder.edges().size() == 3);
}

TEST_CASE("cells are per semaphore and per target core", "[trace]") {
  TraceRecorder recorder(2, 1);
  recorder.on_event(semaphore_event(Kind::signal, 0, 0, 0, 1, 1));  // barrier cell of core 1
  recorder.on_event(semaphore_event(Kind::signal, 1, 1, 0, 0, 1));  // barrier cell of core 0
  recorder.on_event(semaphore_event(Kind::wait, 2, 0, 0, 0, 1));
  recorder.on_event(semaphore_event(Kind::wait, 3, 1, 0, 1, 1));
  REQUIRE(recorder.woken_by(2).size() == 1);
  CHECK(recorder.woken_by(2)[0].signal == 1);
  REQUIRE(recorder.woken_by(3).size() == 1);
  CHECK(recorder.woken_by(3)[0].signal == 0);
}

TEST_CASE("DMA phases signal like cores, and a DMA's start and phases are tracked", "[trace]") {
  TraceRecorder recorder(2, 1);
  TraceEvent start;
  start.kind = Kind::dma_start;
  start.step = 0;
  start.dma = 4;
  start.target_core = 1;
  start.amount = 4096;
  recorder.on_event(start);
  TraceEvent read = semaphore_event(Kind::dma_read, 1, 4, 2000, 0, 4096);
  read.actor = {weft::scheduler::Actor::Kind::dma_read, 4};
  read.dma = 4;
  recorder.on_event(read);
  TraceEvent write = semaphore_event(Kind::dma_write, 2, 4, 2001, 1, 4096);
  write.actor = {weft::scheduler::Actor::Kind::dma_write, 4};
  write.dma = 4;
  recorder.on_event(write);
  recorder.on_event(semaphore_event(Kind::wait, 3, 1, 2001, 1, 4096));

  const auto* dma = recorder.dma(4);
  REQUIRE(dma != nullptr);
  CHECK(dma->start == 0);
  CHECK(dma->read == 1);
  CHECK(dma->write == 2);
  CHECK(recorder.dma(5) == nullptr);
  CHECK_FALSE(recorder.records()[0].signals());  // a start signals nothing
  REQUIRE(recorder.woken_by(3).size() == 1);
  CHECK(recorder.woken_by(3)[0].signal == 2);
}

TEST_CASE("a buffer is copied once, by value, and source lines lose their folders", "[trace]") {
  TraceRecorder recorder(1, 1);
  weft::model::BufferInfo info;
  info.id = 7;
  info.name = "x";
  info.shape = {8, 128};
  weft::model::Buffer buffer(info, weft::model::Uninitialized::nan);
  TraceEvent load;
  load.kind = Kind::load;
  load.buffer = &buffer;
  load.rect = weft::model::Rect::whole(info.shape);
  load.line = {"/some/where/kernel.cpp", 42};
  recorder.on_event(load);
  load.step = 1;
  load.kind = Kind::store;
  recorder.on_event(load);
  REQUIRE(recorder.buffers().size() == 1);
  CHECK(recorder.buffers()[0].name == "x");
  CHECK(recorder.records()[1].buffer == 0);
  CHECK(recorder.records()[0].line == "kernel.cpp:42");
}
