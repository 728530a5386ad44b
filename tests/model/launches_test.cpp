// Programs of several launches at the Machine (model/machine_launches.cpp, semantics.md §12):
// the end of a launch, what it gives back, and the crossed_launch checks.

#include <catch2/catch.hpp>

#include "machine_test_support.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

MachineSpec two_launches(int devices) {
  MachineSpec spec = spec_of(devices, 1);
  spec.launches = 2;
  return spec;
}

int regular(Machine& machine, CoreId by) {
  Failure failure;
  const int index = machine.semaphores().allocate(by, machine.launches().of(machine.topology().global(by)),
                                                  SemaphoreKind::regular, failure);
  REQUIRE(index >= 0);
  return index;
}

// `by` ends its launch and leaves its device's barrier (one core per device: at once).
void end_launch(Machine& machine, CoreId by) {
  Failure failure;
  INFO(failure.message);
  REQUIRE(machine.end_launch(by, here, failure));
  machine.leave_barrier(machine.topology().global(by));
}

}  // namespace

TEST_CASE("A signal from a core in the next launch to one still in the previous is crossed_launch", "[model]") {
  Machine machine(two_launches(2));
  const int early = regular(machine, {0, 0});
  regular(machine, {1, 0});
  end_launch(machine, {0, 0});  // device 0 is in launch 2; device 1 still in launch 1
  const int next = regular(machine, {0, 0});
  CHECK(machine.semaphores().id(next) == machine.semaphores().id(early));  // the same slot, another launch's
  CHECK(next != early);
  Failure failure;
  CHECK_FALSE(machine.add({0, 0}, next, {1, 0}, 1, failure, here));
  CHECK(failure.verdict == Verdict::crossed_launch);
  CHECK_THAT(failure.message, Catch::Contains("device 0 core 0 in launch 2 signals semaphore 2000, of launch 2") &&
                                  Catch::Contains("ring.cpp:42") &&
                                  Catch::Contains("device 1 core 0, which is still in launch 1") &&
                                  Catch::Contains("semaphore 2000, of launch 1") && Catch::Contains("handshake"));
  CHECK(machine.semaphores().count(early, 1) == 0);  // nothing landed
}

TEST_CASE("A signal of the previous launch that reaches a core already in the next one is crossed_launch", "[model]") {
  Machine machine(two_launches(2));
  const int sem = regular(machine, {1, 0});
  regular(machine, {0, 0});
  end_launch(machine, {0, 0});
  Failure failure;
  CHECK_FALSE(machine.add({1, 0}, sem, {0, 0}, 1, failure, here));
  CHECK(failure.verdict == Verdict::crossed_launch);
  CHECK_THAT(failure.message, Catch::Contains("in launch 1 signals") &&
                                  Catch::Contains("which is already in launch 2") &&
                                  Catch::Contains("launch 2 has not allocated semaphore 2000") &&
                                  Catch::Contains("before it ends that launch"));
}

TEST_CASE("The barrier semaphore carries across launches", "[model]") {
  Machine machine(two_launches(2));
  Failure failure;
  const int barrier = machine.semaphores().fixed(0, SemaphoreKind::barrier, failure);
  REQUIRE(barrier >= 0);
  end_launch(machine, {0, 0});
  CHECK(machine.add({0, 0}, barrier, {1, 0}, 1, failure, here));  // the handshake of launch 2
  CHECK(machine.semaphores().count(barrier, 1) == 1);
}

TEST_CASE("Ending a launch with a cell of its semaphores not zero is a semaphore_leak naming the launch", "[model]") {
  Machine machine(two_launches(1));
  const int sem = regular(machine, {0, 0});
  Failure failure;
  REQUIRE(machine.add({0, 0}, sem, {0, 0}, 2, failure, here));
  CHECK_FALSE(machine.end_launch({0, 0}, here, failure));
  CHECK(failure.verdict == Verdict::semaphore_leak);
  CHECK_THAT(failure.message, Catch::Contains("device 0 core 0 ends launch 1 at ring.cpp:42") &&
                                  Catch::Contains("semaphore 2000, of launch 1: count 2"));
}

TEST_CASE("A launch's scratch is freed at its end and the next launch takes the same ids", "[model]") {
  Machine machine(two_launches(1));
  machine.memory().open_scope({0, 0}, {});
  Buffer* first = alloc(machine, {0, 0}, Space::vmem, Shape{8});
  end_launch(machine, {0, 0});
  CHECK(first->freed);
  CHECK(machine.launches().of(0) == 1);
  machine.memory().open_scope({0, 0}, {});
  Buffer* second = alloc(machine, {0, 0}, Space::vmem, Shape{8});
  CHECK(second->info().id == first->info().id);
  CHECK_FALSE(second->freed);
}

TEST_CASE("A DMA started in the next launch into a core still in the previous one is crossed_launch", "[model]") {
  Machine machine(two_launches(2));
  Buffer* src = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  alloc(machine, {1, 0}, Space::vmem, Shape{4});
  const int recv = semaphore(machine, {0, 0});
  end_launch(machine, {0, 0});
  Failure failure;
  CHECK(machine.start_dma({0, 0}, {whole(src), whole(src), {1, 0}, recv, -1}, here, failure) == -1);
  CHECK(failure.verdict == Verdict::crossed_launch);
  CHECK_THAT(failure.message, Catch::Contains("device 0 core 0 in launch 2 starts a DMA (at ring.cpp:42) to "
                                              "device 1 core 0, which is still in launch 1"));
}

TEST_CASE("A DMA that lands after its destination ended the launch is crossed_launch", "[model]") {
  Machine machine(two_launches(2));
  Buffer* src = alloc(machine, {0, 0}, Space::vmem, Shape{4});
  alloc(machine, {1, 0}, Space::vmem, Shape{4});
  const int recv = semaphore(machine, {0, 0});
  semaphore(machine, {1, 0});
  Failure failure;
  const int dma = machine.start_dma({0, 0}, {whole(src), whole(src), {1, 0}, recv, -1}, here, failure);
  REQUIRE(dma >= 0);
  REQUIRE(machine.run_dma_phase(dma, failure));  // the read
  end_launch(machine, {1, 0});                   // device 1 leaves launch 1 before the DMA lands
  CHECK_FALSE(machine.run_dma_phase(dma, failure));
  CHECK(failure.verdict == Verdict::crossed_launch);
  CHECK_THAT(failure.message, Catch::Contains("DMA 0 (started by device 0 core 0 in launch 1 at ring.cpp:42) lands on "
                                              "device 1 core 0, which is already in launch 2"));
}
