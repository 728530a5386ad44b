// The entry owns the verb (sim/ops/operation.hpp): what the engine and the explorer ask of an
// operation comes from the entry's one description: a memory verb's footprint from the access
// it declares, a blocking verb's enabledness from its conditions, a read's poll target, its verb.

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "model/machine.hpp"
#include "sim/ops/table.hpp"

using namespace weft;
namespace ops = weft::sim::ops;

namespace {

model::Machine two_cores() {
  model::MachineSpec spec;
  spec.mesh = {1};
  spec.cores_per_device = 2;
  return model::Machine(spec);
}

}  // namespace

TEST_CASE("A memory verb's footprint is the access it declares, part by part", "[ops]") {
  model::Machine machine = two_cores();
  machine.memory().host_allocate("x", model::ElementType::f32, model::Shape{8});
  model::Buffer* x = machine.memory().find_named(0, "x");
  const model::Slice slice{x, model::Rect{1, {0}, {8}}, {}};
  const std::vector<model::Rect> parts{model::Rect{1, {0}, {2}}, model::Rect{1, {5}, {3}}};
  std::vector<std::byte> in(32), out(32);
  const ops::MaskedStore store{slice, parts, in.data()};
  const ops::OpSite site{{0, 0}, 0, {"k.cpp", 1}};
  scheduler::Footprint footprint;
  ops::footprint(ops::pending(store, site.line), machine, site, {}, footprint);
  REQUIRE(footprint.touches.size() == 2);
  CHECK(footprint.touches[0].mode == scheduler::TouchMode::write);
  CHECK(footprint.touches[1].box.start[0] == 5);
  CHECK(footprint.touches[1].box.size[0] == 3);
  const ops::Load load{slice, out.data()};
  scheduler::Footprint read;
  ops::footprint(ops::pending(load, site.line), machine, site, {}, read);
  REQUIRE(read.touches.size() == 1);
  CHECK(read.touches[0].mode == scheduler::TouchMode::read);
  CHECK(read.touches[0].box.size[0] == 8);
}

TEST_CASE("A blocking verb is enabled once one of its conditions holds", "[ops]") {
  model::Machine machine = two_cores();
  model::Failure failure;
  const int sem = machine.semaphores().allocate({0, 1}, 0, model::SemaphoreKind::regular, failure);
  const ops::Wait wait{sem, 2};
  const ops::PendingOp op = ops::pending(wait, {"k.cpp", 2});
  CHECK_FALSE(ops::enabled(op, machine, 1));
  REQUIRE(ops::waits(op, machine, 1)->count == 1);
  REQUIRE(machine.add({0, 0}, sem, {0, 1}, 2, failure));
  CHECK(ops::enabled(op, machine, 1));
  const ops::BarrierLeave leave;
  const auto barrier = ops::waits(ops::pending(leave, {"k.cpp", 3}), machine, 1);
  REQUIRE(barrier);
  CHECK(barrier->begin()->device_barrier);
  CHECK(barrier->begin()->needs == 2);
}

TEST_CASE("Only reads have a poll target, and every entry names its verb", "[ops]") {
  const ops::Read read{3};
  const ops::OpSite site{{0, 1}, 1, {"k.cpp", 4}};
  const auto target = ops::polls(ops::pending(read, site.line), site);
  REQUIRE(target);
  CHECK(target->semaphore == 3);
  CHECK(target->global_core == 1);
  const ops::Signal signal{3, {0, 0}, 0, 1};
  CHECK_FALSE(ops::polls(ops::pending(signal, site.line), site));
  CHECK(ops::verb(ops::kind_of<ops::Signal>) == "signals");
  CHECK(ops::verb(ops::kind_of<ops::MaskedLoad>) == "loads with a mask");
  CHECK(ops::Table::verbs.size() == ops::Table::size);
}
