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

// One core, a source of `elements` floats counting up from 1 and a target, and a receive
// semaphore: copies of all of the source into all of the target.
struct Copies {
  explicit Copies(std::int64_t elements) : machine(spec_of(1, 1)) {
    src = alloc(machine, me, Space::vmem, Shape{elements});
    dst = alloc(machine, me, Space::vmem, Shape{elements});
    recv = semaphore(machine, me);
    fill(src, 1);
  }
  // Starts a copy; `origin` names a library's DMA. Returns its id.
  int start(const DmaOrigin& origin = {}) {
    Failure failure;
    DmaRequest request{whole(src), whole(dst), me, recv, -1};
    request.origin = origin;
    const int id = machine.start_dma(me, request, here, failure);
    INFO(failure.message);
    REQUIRE(id >= 0);
    return id;
  }
  void run_to_end(int id) {
    Failure failure;
    while (machine.dmas()[id].next != DmaPhase::done) REQUIRE(machine.run_dma_phase(id, failure));
  }

  Machine machine;
  Buffer* src = nullptr;
  Buffer* dst = nullptr;
  int recv = -1;
};

}  // namespace

TEST_CASE("A DMA record is small, and only the DMAs in flight at once hold in-flight parts", "[model]") {
  static_assert(sizeof(Dma) <= 72, "the record kept for every DMA of an execution");
  Copies copies(4);
  const DmaRecords& dmas = copies.machine.dmas();
  const int first = copies.start();
  const int second = copies.start();
  CHECK(dmas[first].flight != dmas[second].flight);  // both in flight: two slots
  CHECK(dmas.flight(second).dma == second);
  copies.run_to_end(first);
  // The finished DMA's part is still readable until a start takes its slot (a trace event reads it).
  CHECK(dmas.flight(first).landed == 16);
  CHECK(dmas.flight(first).target.buffer == copies.dst);
  const int third = copies.start();
  CHECK(dmas[third].flight == dmas[first].flight);  // the slot given back
  copies.run_to_end(second);
  copies.run_to_end(third);
  const int fourth = copies.start();  // the last slot given back is taken first
  CHECK(dmas[fourth].flight == dmas[third].flight);
  // What the record keeps: what reports read once the DMA is done.
  const Dma& done = dmas[first];
  CHECK(done.id == first);
  CHECK(done.next == DmaPhase::done);
  CHECK(done.bytes == 16);
  CHECK(done.starter == me);
  CHECK(done.recv_semaphore == copies.recv);
  CHECK(copies.machine.describe_actor({Accessor::Kind::dma, first}) == "DMA 0 (started by device 0 core 0)");
}

TEST_CASE("Only a library's DMA fills the side table of origins, which names it after it finished", "[model]") {
  Copies copies(4);
  copies.machine.memory().host_allocate("x", ElementType::f32, Shape{4});
  copies.src = copies.machine.memory().find_named(0, "x");
  REQUIRE(copies.src != nullptr);
  fill(copies.src, 1);
  DmaOrigin origin;
  origin.what = "fetch of in";
  origin.operand = 0;
  origin.grid_rank = 1;
  origin.grid = {2};
  origin.step = 1;
  const DmaRecords& dmas = copies.machine.dmas();
  const int kernel = copies.start();
  const int library = copies.start(origin);
  CHECK(dmas.origin(kernel) == nullptr);
  CHECK(dmas.describe_origin(kernel).empty());
  CHECK(dmas[library].origin == 0);
  copies.run_to_end(library);
  copies.start();  // takes the finished DMA's slot
  REQUIRE(dmas.origin(library) != nullptr);
  CHECK(dmas.origin(library)->step == 1);
  const std::string name = "fetch of in[0] 'x' for grid point (1)";
  CHECK(dmas.describe_origin(library) == name);
  CHECK(copies.machine.describe_actor({Accessor::Kind::dma, library}) ==
        "DMA 1 (" + name + ", started by device 0 core 0)");
}

TEST_CASE("DMA storage passed to the next execution keeps its slots and their snapshots' capacity", "[model]") {
  DmaRecords storage;
  std::size_t capacity = 0;
  {
    Copies copies(64);
    const int id = copies.start();
    copies.run_to_end(id);
    capacity = copies.machine.dmas().flight(id).snapshot.capacity();
    CHECK(capacity >= 256);
    storage = copies.machine.release_dma_storage();
    CHECK(storage.empty());
  }
  Copies copies(64);
  copies.machine.reuse_dma_storage(std::move(storage));
  const int id = copies.start();
  CHECK(id == 0);
  CHECK(copies.machine.dmas()[id].flight == 0);
  CHECK(copies.machine.dmas().flight(id).snapshot.capacity() == capacity);
  copies.run_to_end(id);
  CHECK(contents(copies.dst) == contents(copies.src));
}
