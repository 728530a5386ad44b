// The DMA records (model/dma_records.hpp): a small record kept for every DMA, an in-flight part
// in a pool slot given back when the write phase's last chunk lands and taken again by a later
// start, origins only for library DMAs, and storage kept across executions.

#include <catch2/catch.hpp>

#include <string>

#include "machine_test_support.hpp"
#include "model/dma_records.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

constexpr CoreId me{0, 0};

// Starts a copy of all of `src` into all of `dst` on core `me`; returns its id.
int start(Machine& machine, Buffer* src, Buffer* dst, int recv, const DmaOrigin& origin = {}) {
  Failure failure;
  DmaRequest request{whole(src), whole(dst), me, recv, -1};
  request.origin = origin;
  const int id = machine.start_dma(me, request, here, failure);
  INFO(failure.message);
  REQUIRE(id >= 0);
  return id;
}

void run_to_end(Machine& machine, int id) {
  Failure failure;
  while (machine.dmas()[id].next != DmaPhase::done) REQUIRE(machine.run_dma_phase(id, failure));
}

}  // namespace

TEST_CASE("A DMA record is small, and only the DMAs in flight at once hold in-flight parts", "[model]") {
  static_assert(sizeof(Dma) <= 72, "the record kept for every DMA of an execution");
  Machine machine(spec_of(1, 1));
  Buffer* src = alloc(machine, me, Space::vmem, Shape{4});
  Buffer* dst = alloc(machine, me, Space::vmem, Shape{4});
  const int recv = semaphore(machine, me);
  fill(src, 1);
  const int first = start(machine, src, dst, recv);
  const int second = start(machine, src, dst, recv);
  CHECK(machine.dmas()[first].flight != machine.dmas()[second].flight);  // both in flight: two slots
  CHECK(machine.dmas().flight(second).dma == second);
  run_to_end(machine, first);
  // The finished DMA's part is still readable until a start takes its slot (a trace event reads it).
  CHECK(machine.dmas().flight(first).landed == 16);
  CHECK(machine.dmas().flight(first).target.buffer == dst);
  const int third = start(machine, src, dst, recv);
  CHECK(machine.dmas()[third].flight == machine.dmas()[first].flight);  // the slot given back
  run_to_end(machine, second);
  run_to_end(machine, third);
  const int fourth = start(machine, src, dst, recv);  // the last slot given back is taken first
  CHECK(machine.dmas()[fourth].flight == machine.dmas()[third].flight);
  // What the record keeps: what reports read once the DMA is done.
  const Dma& done = machine.dmas()[first];
  CHECK(done.id == first);
  CHECK(done.next == DmaPhase::done);
  CHECK(done.bytes == 16);
  CHECK(done.starter == me);
  CHECK(done.recv_semaphore == recv);
  CHECK(machine.describe_actor({Accessor::Kind::dma, first}) == "DMA 0 (started by device 0 core 0)");
}

TEST_CASE("Only a library's DMA fills the side table of origins, which names it after it finished", "[model]") {
  Machine machine(spec_of(1, 1));
  machine.memory().host_allocate("x", ElementType::f32, Shape{4});
  Buffer* src = machine.memory().find_named(0, "x");
  REQUIRE(src != nullptr);
  Buffer* dst = alloc(machine, me, Space::vmem, Shape{4});
  const int recv = semaphore(machine, me);
  fill(src, 1);
  DmaOrigin origin;
  origin.what = "fetch of in";
  origin.operand = 0;
  origin.grid_rank = 1;
  origin.grid = {2};
  origin.step = 1;
  const int kernel = start(machine, src, dst, recv);
  const int library = start(machine, src, dst, recv, origin);
  CHECK(machine.dmas().origin(kernel) == nullptr);
  CHECK(machine.dmas().describe_origin(kernel).empty());
  CHECK(machine.dmas()[library].origin == 0);
  run_to_end(machine, library);
  start(machine, src, dst, recv);  // takes the finished DMA's slot
  REQUIRE(machine.dmas().origin(library) != nullptr);
  CHECK(machine.dmas().origin(library)->step == 1);
  const std::string name = "fetch of in[0] 'x' for grid point (1)";
  CHECK(machine.dmas().describe_origin(library) == name);
  CHECK(machine.describe_actor({Accessor::Kind::dma, library}) == "DMA 1 (" + name + ", started by device 0 core 0)");
}

TEST_CASE("DMA storage passed to the next execution keeps its slots and their snapshots' capacity", "[model]") {
  DmaRecords storage;
  std::size_t capacity = 0;
  {
    Machine machine(spec_of(1, 1));
    Buffer* src = alloc(machine, me, Space::vmem, Shape{64});
    Buffer* dst = alloc(machine, me, Space::vmem, Shape{64});
    const int recv = semaphore(machine, me);
    fill(src, 1);
    const int id = start(machine, src, dst, recv);
    run_to_end(machine, id);
    capacity = machine.dmas().flight(id).snapshot.capacity();
    CHECK(capacity >= 256);
    storage = machine.release_dma_storage();
    CHECK(storage.empty());
  }
  Machine machine(spec_of(1, 1));
  machine.reuse_dma_storage(std::move(storage));
  Buffer* src = alloc(machine, me, Space::vmem, Shape{64});
  Buffer* dst = alloc(machine, me, Space::vmem, Shape{64});
  const int recv = semaphore(machine, me);
  fill(src, 2);
  const int id = start(machine, src, dst, recv);
  CHECK(id == 0);
  CHECK(machine.dmas()[id].flight == 0);
  CHECK(machine.dmas().flight(id).snapshot.capacity() == capacity);
  run_to_end(machine, id);
  CHECK(contents(dst) == contents(src));
}
