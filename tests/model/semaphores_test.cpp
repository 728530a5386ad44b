// Semaphores: SPMD-symmetric ids from 2000, one cell per (semaphore, global core), kind
// mismatches, barrier id collisions and the ordering of the leak report.

#include <catch2/catch.hpp>

#include "model/semaphores.hpp"

namespace {

using namespace weft::model;

struct Fixture {
  Fixture(int devices, int cores) : spec(make_spec(devices, cores)), topology(spec), semaphores(topology) {}
  static MachineSpec make_spec(int devices, int cores) {
    MachineSpec result;
    result.mesh = {devices};
    result.cores_per_device = cores;
    return result;
  }
  int allocate(CoreId by, SemaphoreKind kind) {
    Failure failure;
    const int index = semaphores.allocate(by, 0, kind, failure);
    INFO(failure.message);
    REQUIRE(index >= 0);
    return index;
  }
  MachineSpec spec;
  Topology topology;
  Semaphores semaphores;
};

}  // namespace

TEST_CASE("Semaphore ids count from 2000 on every core and name one semaphore everywhere", "[model]") {
  Fixture f(2, 2);
  CHECK(first_semaphore_id == 2000);
  const int a = f.allocate({0, 0}, SemaphoreKind::regular);
  const int b = f.allocate({0, 0}, SemaphoreKind::dma);
  CHECK(f.semaphores.id(a) == 2000);
  CHECK(f.semaphores.id(b) == 2001);
  CHECK(f.semaphores.kind(a) == SemaphoreKind::regular);
  CHECK(f.semaphores.kind(b) == SemaphoreKind::dma);
  for (CoreId other : {CoreId{0, 1}, CoreId{1, 0}, CoreId{1, 1}}) {
    CAPTURE(to_string(other));
    CHECK(f.allocate(other, SemaphoreKind::regular) == a);
    CHECK(f.allocate(other, SemaphoreKind::dma) == b);
  }
  // A third allocation on one core is a new semaphore.
  const int c = f.allocate({1, 1}, SemaphoreKind::regular);
  CHECK(c != a);
  CHECK(c != b);
  CHECK(f.semaphores.id(c) == 2002);
}

TEST_CASE("A semaphore has one zero-initialized cell per global core", "[model]") {
  Fixture f(2, 3);
  const int s = f.allocate({0, 0}, SemaphoreKind::regular);
  for (int core = 0; core < 6; ++core) CHECK(f.semaphores.count(s, core) == 0);
  f.semaphores.add(s, 4, 7);
  f.semaphores.add(s, 4, 2);
  f.semaphores.add(s, 1, 1);
  CHECK(f.semaphores.count(s, 4) == 9);
  CHECK(f.semaphores.count(s, 1) == 1);
  for (int core : {0, 2, 3, 5}) CHECK(f.semaphores.count(s, core) == 0);
  f.semaphores.add(s, 4, -9);
  CHECK(f.semaphores.count(s, 4) == 0);
  // Another semaphore's cells are independent.
  const int t = f.allocate({0, 0}, SemaphoreKind::regular);
  CHECK(f.semaphores.count(t, 1) == 0);
}

TEST_CASE("Allocating a semaphore of another kind under the same id is a kernel_error", "[model]") {
  Fixture f(2, 1);
  f.allocate({0, 0}, SemaphoreKind::regular);
  Failure failure;
  CHECK(f.semaphores.allocate({1, 0}, 0, SemaphoreKind::dma, failure) == -1);
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message, Catch::Contains("semaphore 2000") && Catch::Contains("regular") &&
                                  Catch::Contains("dma") && Catch::Contains("device 1 core 0"));
  // The semaphore keeps its first kind.
  CHECK(f.semaphores.kind(0) == SemaphoreKind::regular);
}

TEST_CASE("The barrier semaphore has a fixed id shared by every caller", "[model]") {
  Fixture f(2, 2);
  Failure failure;
  const int barrier = f.semaphores.fixed(0, SemaphoreKind::barrier, failure);
  REQUIRE(barrier >= 0);
  CHECK(f.semaphores.fixed(0, SemaphoreKind::barrier, failure) == barrier);
  CHECK(f.semaphores.id(barrier) == 0);
  CHECK(f.semaphores.kind(barrier) == SemaphoreKind::barrier);
  // Allocated ids do not collide with it.
  const int s = f.allocate({0, 0}, SemaphoreKind::regular);
  CHECK(s != barrier);
  CHECK(f.semaphores.id(s) == 2000);
}

TEST_CASE("A barrier id that collides with an allocated semaphore is a kernel_error", "[model]") {
  Fixture f(1, 1);
  f.allocate({0, 0}, SemaphoreKind::dma);
  Failure failure;
  CHECK(f.semaphores.fixed(2000, SemaphoreKind::barrier, failure) == -1);
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message, Catch::Contains("barrier") && Catch::Contains("2000") && Catch::Contains("dma"));
}

TEST_CASE("Allocating the id of the barrier semaphore is a kernel_error", "[model]") {
  Fixture f(1, 2);
  Failure failure;
  REQUIRE(f.semaphores.fixed(2001, SemaphoreKind::barrier, failure) >= 0);
  f.allocate({0, 1}, SemaphoreKind::regular);                                      // 2000
  CHECK(f.semaphores.allocate({0, 1}, 0, SemaphoreKind::regular, failure) == -1);  // 2001
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message,
             Catch::Contains("2001") && Catch::Contains("barrier") && Catch::Contains("device 0 core 1"));
}

TEST_CASE("A fixed id is made once per kind, the sync copy semaphore is a dma one below the allocated ids", "[model]") {
  Fixture f(1, 2);
  Failure failure;
  const int copies = f.semaphores.fixed(sync_copy_semaphore_id, SemaphoreKind::dma, failure);
  REQUIRE(copies >= 0);
  CHECK(f.semaphores.fixed(sync_copy_semaphore_id, SemaphoreKind::dma, failure) == copies);
  CHECK(sync_copy_semaphore_id < first_semaphore_id);
  CHECK(f.semaphores.id(f.allocate({0, 0}, SemaphoreKind::dma)) == first_semaphore_id);
  CHECK(f.semaphores.fixed(sync_copy_semaphore_id, SemaphoreKind::barrier, failure) == -1);
  CHECK_THAT(failure.message, Catch::Contains("the barrier semaphore id 1999 is already the id of a dma semaphore"));
}

TEST_CASE("nonzero_cells lists every non-zero cell by semaphore id, then core", "[model]") {
  Fixture f(2, 2);
  Failure failure;
  // Created out of id order: 2000, 2001, then barrier 5 and 2002.
  const int s2000 = f.allocate({0, 0}, SemaphoreKind::regular);
  const int s2001 = f.allocate({0, 0}, SemaphoreKind::dma);
  const int barrier = f.semaphores.fixed(5, SemaphoreKind::barrier, failure);
  REQUIRE(barrier >= 0);
  const int s2002 = f.allocate({0, 0}, SemaphoreKind::regular);
  CHECK(f.semaphores.nonzero_cells().empty());

  f.semaphores.add(s2002, 0, 1);
  f.semaphores.add(s2000, 3, 4);
  f.semaphores.add(s2000, 1, -2);  // negative counts are non-zero too
  f.semaphores.add(barrier, 2, 1);
  f.semaphores.add(s2001, 0, 5);
  f.semaphores.add(s2001, 0, -5);  // back to zero: not listed

  const auto cells = f.semaphores.nonzero_cells();
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].id == 5);
  CHECK(cells[0].global_core == 2);
  CHECK(cells[0].count == 1);
  CHECK(cells[1].id == 2000);
  CHECK(cells[1].global_core == 1);
  CHECK(cells[1].count == -2);
  CHECK(cells[2].id == 2000);
  CHECK(cells[2].global_core == 3);
  CHECK(cells[2].count == 4);
  CHECK(cells[3].id == 2002);
  CHECK(cells[3].global_core == 0);
  CHECK(cells[3].count == 1);
}

TEST_CASE("Semaphore kinds print by name", "[model]") {
  CHECK(to_string(SemaphoreKind::regular) == "regular");
  CHECK(to_string(SemaphoreKind::dma) == "dma");
  CHECK(to_string(SemaphoreKind::barrier) == "barrier");
}
