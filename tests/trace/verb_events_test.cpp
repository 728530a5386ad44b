// How traces name the events of the later verbs: semaphore arrays, masked accesses, swaps, the
// device barrier, and the sync-copy semaphore.
#include <catch2/catch.hpp>

#include "model/semaphores.hpp"
#include "sim/trace/describe.hpp"

using weft::sim::TraceEvent;
using weft::sim::TraceRecorder;
using Kind = TraceEvent::Kind;

namespace {

TraceEvent event_of(Kind kind, std::uint32_t core) {
  TraceEvent event;
  event.kind = kind;
  event.actor = weft::scheduler::core_actor(core);
  return event;
}

}  // namespace

TEST_CASE("Traces name semaphore arrays, masked accesses, swaps and the device barrier", "[trace]") {
  using namespace weft::model;
  const Buffer x(BufferInfo{3, Space::hbm, 0, -1, ElementType::bf16, Shape{2, 8}, "x"}, Uninitialized::zero);
  TraceRecorder recorder(1, 2);

  TraceEvent allocate = event_of(Kind::allocate, 0);
  allocate.semaphore_id = 2004;
  allocate.amount = 4;
  recorder.on_event(allocate);

  TraceEvent masked = event_of(Kind::store, 0);
  masked.buffer = &x;
  masked.rect = Rect::whole(x.info().shape);
  masked.amount = 6;
  recorder.on_event(masked);

  TraceEvent swap = event_of(Kind::swap, 1);
  swap.buffer = &x;
  swap.rect = Rect{2, {1, 0}, {1, 8}};
  swap.amount = 8;  // every element kept: no mask to mention
  recorder.on_event(swap);

  TraceEvent arrive = event_of(Kind::barrier_arrive, 1);
  arrive.target_core = 1;
  arrive.amount = 2;
  arrive.count = 1;
  recorder.on_event(arrive);

  TraceEvent leave = event_of(Kind::barrier_leave, 1);
  leave.target_core = 1;
  leave.amount = 2;
  leave.count = 0;
  recorder.on_event(leave);

  const auto& records = recorder.records();
  REQUIRE(records.size() == 5);
  CHECK(weft::sim::record_details(recorder, records[0]) == "semaphore 2004..2007");
  CHECK(weft::sim::record_details(recorder, records[1]) ==
        "hbm buffer 3 'x' bf16[2, 8] on device 0 [0:2, 0:8], mask keeps 6 of 16");
  CHECK(weft::sim::record_title(recorder, records[2]) == "swap");
  CHECK(weft::sim::record_details(recorder, records[2]) == "hbm buffer 3 'x' bf16[2, 8] on device 0 [1:2, 0:8]");
  CHECK(weft::sim::record_title(recorder, records[3]) == "arrive at the device barrier");
  CHECK(weft::sim::record_details(recorder, records[3]) ==
        "+1 to the barrier cell of each of the device's 2 cores; own cell -> 1");
  CHECK(weft::sim::record_details(recorder, records[4]) == "barrier cell of device 0 core 1 -2 -> 0");
  CHECK(weft::sim::semaphore_name(recorder, sync_copy_semaphore_id) == "sync_copy semaphore 1999");
  CHECK(weft::sim::semaphore_name(recorder, 0) == "barrier semaphore 0");
}
