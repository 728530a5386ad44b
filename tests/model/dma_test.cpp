// Machine DMAs: the checks at dma_start, the two phases (snapshot and send signal, then store
// and recv signal), remote targets, the Access each phase reports, and the exit checks.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "machine_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

TEST_CASE("dma_start rejects a bad copy with a clear error and starts nothing", "[model]") {
  Machine machine(spec_of(2, 1));
  Buffer* src = alloc(machine, {0, 0}, Space::vmem, Shape{8});
  Buffer* dst = alloc(machine, {0, 0}, Space::vmem, Shape{8});
  const int recv = semaphore(machine, {0, 0});
  Failure failure;
  int id = 0;
  SECTION("shape mismatch") {
    id = machine.start_dma({0, 0}, {slice(src, rect1(0, 4)), slice(dst, rect1(0, 5)), {0, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::kernel_error);
    CHECK_THAT(failure.message, Catch::Contains("[4]") && Catch::Contains("[5]") && Catch::Contains("ring.cpp:42"));
  }
  SECTION("zero elements") {
    id = machine.start_dma({0, 0}, {slice(src, rect1(2, 0)), slice(dst, rect1(2, 0)), {0, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::kernel_error);
    CHECK_THAT(failure.message, Catch::Contains("empty"));
  }
  SECTION("destination buffer missing on the target device") {
    // Buffer 101 exists only on device 0.
    id = machine.start_dma({0, 0}, {whole(src), whole(dst), {1, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::kernel_error);
    CHECK_THAT(failure.message, Catch::Contains("buffer 101") && Catch::Contains("does not exist") &&
                                    Catch::Contains("device 1 core 0"));
  }
  SECTION("destination device outside the mesh") {
    id = machine.start_dma({0, 0}, {whole(src), whole(dst), {2, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::kernel_error);
    CHECK_THAT(failure.message, Catch::Contains("device 2"));
  }
  SECTION("source out of bounds") {
    id = machine.start_dma({0, 0}, {slice(src, rect1(6, 4)), slice(dst, rect1(0, 4)), {0, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::out_of_bounds);
    CHECK_THAT(failure.message,
               Catch::Contains("reading") && Catch::Contains("[6:10]") && Catch::Contains("buffer 100"));
  }
  SECTION("destination out of bounds") {
    id = machine.start_dma({0, 0}, {slice(src, rect1(0, 4)), slice(dst, rect1(5, 4)), {0, 0}, recv, -1}, here, failure);
    CHECK(failure.verdict == Verdict::out_of_bounds);
    CHECK_THAT(failure.message,
               Catch::Contains("writing") && Catch::Contains("[5:9]") && Catch::Contains("buffer 101"));
  }
  CHECK(id == -1);
  CHECK(machine.dmas().empty());
}

TEST_CASE("A DMA snapshots its source in the read phase and stores it in the write phase", "[model]") {
  Machine machine(spec_of(1, 2));
  const CoreId me{0, 1};
  Buffer* src = alloc(machine, me, Space::vmem, Shape{6});
  Buffer* dst = alloc(machine, me, Space::vmem, Shape{6});
  const int recv = semaphore(machine, me);
  const int send = semaphore(machine, me);
  fill(src, 1);
  fill(dst, 100);
  Failure failure;
  const int id =
      machine.start_dma(me, {slice(src, rect1(1, 3)), slice(dst, rect1(2, 3)), me, recv, send}, here, failure);
  REQUIRE(id == 0);
  REQUIRE(machine.dmas().size() == 1);
  const Dma& dma = machine.dmas()[0];
  CHECK(dma.bytes == 12);
  CHECK_FALSE(dma.remote());
  CHECK(dma.next == DmaPhase::read);
  CHECK(contents(dst) == std::vector<float>{100, 101, 102, 103, 104, 105});  // starting copies nothing
  CHECK(machine.next_phase_signal(id) == std::pair<int, int>{send, 1});

  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.dmas()[0].next == DmaPhase::write);
  CHECK(machine.semaphores().count(send, 1) == 12);  // send signalled on the starter, by bytes
  CHECK(machine.semaphores().count(recv, 1) == 0);
  CHECK(contents(dst) == std::vector<float>{100, 101, 102, 103, 104, 105});
  CHECK(machine.next_phase_signal(id) == std::pair<int, int>{recv, 1});

  fill(src, -50);  // a later change of the source does not reach the destination
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.dmas()[0].next == DmaPhase::done);
  CHECK(contents(dst) == std::vector<float>{100, 101, 2, 3, 4, 105});
  CHECK(machine.semaphores().count(recv, 1) == 12);
  CHECK(machine.semaphores().count(recv, 0) == 0);
  CHECK(machine.semaphores().count(send, 1) == 12);
}

TEST_CASE("A DMA without a send semaphore signals nothing in its read phase", "[model]") {
  Machine machine(spec_of(1, 1));
  Buffer* src = alloc(machine, {0, 0}, Space::vmem, Shape{2});
  Buffer* dst = alloc(machine, {0, 0}, Space::vmem, Shape{2});
  const int recv = semaphore(machine, {0, 0});
  Failure failure;
  const int id = machine.start_dma({0, 0}, {whole(src), whole(dst), {0, 0}, recv, -1}, here, failure);
  REQUIRE(id >= 0);
  CHECK(machine.next_phase_signal(id).first == -1);
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.semaphores().nonzero_cells().empty());
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.semaphores().count(recv, 0) == 8);
}

TEST_CASE("A remote DMA writes the same buffer id on the other device and signals recv there", "[model]") {
  Machine machine(spec_of(2, 2));
  Recorder recorder;
  machine.set_observer(&recorder);
  Buffer* local[2];
  Buffer* remote[2];
  for (int core = 0; core < 2; ++core) {
    alloc(machine, {0, core}, Space::vmem, Shape{4});
    alloc(machine, {1, core}, Space::vmem, Shape{4});
    local[core] = alloc(machine, {0, core}, Space::vmem, Shape{2, 4});
    remote[core] = alloc(machine, {1, core}, Space::vmem, Shape{2, 4});
    fill(remote[core], 0);
  }
  Buffer* src = machine.memory().find(Space::vmem, 100, {0, 1});
  fill(src, 7);
  const int recv = semaphore(machine, {0, 1});
  const int send = semaphore(machine, {0, 1});
  Failure failure;
  // Source: all of buffer 100 (a [4]); target: row 1 of buffer 101, indexed down to a [4] view.
  Slice target = slice(local[1], Rect{2, {1, 0}, {1, 4}});
  target.view = Shape{4};
  Slice source = whole(src);
  const int id =
      machine.start_dma({0, 1}, {source, target, {1, 1}, recv, send}, SourceLine{"a/b/remote.cpp", 9}, failure);
  INFO(failure.message);
  REQUIRE(id >= 0);
  const Dma& dma = machine.dmas()[id];
  CHECK(dma.remote());
  CHECK(dma.destination == CoreId{1, 1});
  CHECK(machine.dmas().flight(id).target.buffer == remote[1]);
  CHECK(machine.next_phase_signal(id) == std::pair<int, int>{send, 1});
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(machine.next_phase_signal(id) == std::pair<int, int>{recv, 3});
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(contents(remote[1]) == std::vector<float>{0, 1, 2, 3, 7, 8, 9, 10});
  CHECK(contents(remote[0]) == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(std::isnan(local[1]->data<float>()[4]));  // the starter's own buffer 101 is untouched
  CHECK(machine.semaphores().count(send, 1) == 16);
  CHECK(machine.semaphores().count(recv, 3) == 16);
  CHECK(machine.semaphores().count(recv, 1) == 0);

  // Both phases reported one access each, by the DMA, with the right buffer, rectangle and flag.
  REQUIRE(recorder.accesses.size() == 2);
  const Access& read = recorder.accesses[0];
  CHECK(read.who.kind == Accessor::Kind::dma);
  CHECK(read.who.index == id);
  CHECK(read.buffer == src);
  CHECK(read.rect == Rect::whole(Shape{4}));
  CHECK_FALSE(read.is_write);
  CHECK(read.line.line == 9);
  const Access& write = recorder.accesses[1];
  CHECK(write.who.kind == Accessor::Kind::dma);
  CHECK(write.who.index == id);
  CHECK(write.buffer == remote[1]);
  CHECK(write.rect == (Rect{2, {1, 0}, {1, 4}}));
  CHECK(write.is_write);
  CHECK_THAT(machine.dmas().describe(id), Catch::Contains("DMA 0") && Catch::Contains("device 0 core 1") &&
                                              Catch::Contains("remote.cpp:9") && Catch::Contains("done"));
}

TEST_CASE("exit_check reports DMAs in flight, else leaked semaphore cells, else nothing", "[model]") {
  Machine machine(spec_of(2, 1));
  Buffer* a = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  Buffer* b = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  alloc(machine, {1, 0}, Space::vmem, Shape{4});
  alloc(machine, {1, 0}, Space::vmem, Shape{4});
  const int recv = semaphore(machine, {0, 0});
  const int other = semaphore(machine, {0, 0});
  CHECK_FALSE(machine.exit_check().has_value());

  Failure failure;
  const int d0 = machine.start_dma({0, 0}, {whole(a), whole(b), {0, 0}, recv, -1}, here, failure);
  const int d1 = machine.start_dma({0, 0}, {whole(a), whole(b), {1, 0}, recv, -1}, here, failure);
  const int d2 = machine.start_dma({0, 0}, {whole(a), whole(b), {0, 0}, recv, -1}, here, failure);
  REQUIRE((d0 == 0 && d1 == 1 && d2 == 2));
  REQUIRE(machine.add({0, 0}, other, {1, 0}, 2, failure));
  REQUIRE(machine.run_dma_phase(d1, failure));
  REQUIRE(machine.run_dma_phase(d1, failure));  // d1 done; d0 and d2 never ran
  REQUIRE(machine.run_dma_phase(d2, failure));  // d2 halfway

  auto check = machine.exit_check();
  REQUIRE(check.has_value());
  CHECK(check->verdict == Verdict::dma_in_flight);
  CHECK_THAT(check->message, Catch::Contains("DMA 0 started by device 0 core 0") &&
                                 Catch::Contains("DMA 2 started by device 0 core 0") &&
                                 Catch::Contains("read phase pending") && Catch::Contains("write phase pending"));
  CHECK_THAT(check->message, !Catch::Contains("DMA 1 "));

  REQUIRE(machine.run_dma_phase(d0, failure));
  REQUIRE(machine.run_dma_phase(d0, failure));
  REQUIRE(machine.run_dma_phase(d2, failure));
  check = machine.exit_check();
  REQUIRE(check.has_value());
  CHECK(check->verdict == Verdict::semaphore_leak);
  CHECK_THAT(check->message, Catch::Contains("semaphore 2000, cell of device 0 core 0: count 32") &&
                                 Catch::Contains("semaphore 2000, cell of device 1 core 0: count 16") &&
                                 Catch::Contains("semaphore 2001, cell of device 1 core 0: count 2"));

  machine.take(recv, 0, 32);
  machine.take(recv, 1, 16);
  machine.take(other, 1, 2);
  CHECK_FALSE(machine.exit_check().has_value());
}

TEST_CASE("A DMA into another core of its device writes that core's buffer and signals its cell", "[model]") {
  Machine machine(spec_of(1, 2));
  Buffer* mine = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  Buffer* theirs = alloc(machine, {0, 1}, Space::vmem, Shape{4});
  fill(mine, 1);
  fill(theirs, 50);
  const int recv = semaphore(machine, {0, 0});
  Failure failure;
  const int id = machine.start_dma({0, 0}, {whole(mine), whole(mine), {0, 1}, recv, -1}, here, failure);
  REQUIRE(id >= 0);
  CHECK(machine.dmas()[id].remote());
  CHECK(machine.dmas().flight(id).target.buffer == theirs);
  REQUIRE(machine.run_dma_phase(id, failure));
  REQUIRE(machine.run_dma_phase(id, failure));
  CHECK(contents(theirs) == std::vector<float>{1, 2, 3, 4});
  CHECK(machine.semaphores().count(recv, 1) == 16);
  CHECK(machine.semaphores().count(recv, 0) == 0);

  CHECK(machine.start_dma({0, 0}, {whole(mine), whole(mine), {0, 2}, recv, -1}, here, failure) == -1);
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message, Catch::Contains("core 2 of device 0 does not exist"));
}

TEST_CASE("A DMA that adds accumulates its source into the target in the write phase", "[model]") {
  Machine machine(spec_of(1, 1));
  Failure failure;
  const auto make = [&](ElementType type) {
    Buffer* buffer = machine.memory().allocate({0, 0}, Space::vmem, type, Shape{3}, failure);
    REQUIRE(buffer != nullptr);
    return buffer;
  };
  Buffer* src = make(ElementType::i16);
  Buffer* dst = make(ElementType::i16);
  const int recv = semaphore(machine, {0, 0});
  for (int k = 0; k < 3; ++k) {
    src->data<std::int16_t>()[k] = static_cast<std::int16_t>(k + 1);
    dst->data<std::int16_t>()[k] = static_cast<std::int16_t>(100 * k);
  }
  const int id = machine.start_dma({0, 0}, {whole(src), whole(dst), {0, 0}, recv, -1, true}, here, failure);
  REQUIRE(id >= 0);
  REQUIRE(machine.run_dma_phase(id, failure));
  src->data<std::int16_t>()[0] = 77;  // after the read phase: the snapshot is what is added
  REQUIRE(machine.run_dma_phase(id, failure));
  const std::int16_t* sum = dst->data<std::int16_t>();
  CHECK(std::vector<std::int16_t>(sum, sum + 3) == std::vector<std::int16_t>{1, 102, 203});
  CHECK(machine.semaphores().count(recv, 0) == 6);

  Buffer* flags = make(ElementType::boolean);
  CHECK(machine.start_dma({0, 0}, {whole(flags), whole(flags), {0, 0}, recv, -1, true}, here, failure) == -1);
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message, Catch::Contains("a DMA that adds needs numbers, not bool elements"));
}
