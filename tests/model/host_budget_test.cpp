// The host memory budget: all buffers of an execution together, checked before each is
// allocated. A host buffer past it is refused as a whole (before any device's copy exists),
// naming it; a kernel allocation past it is out_of_memory naming the buffer and the budget.

#include <catch2/catch.hpp>

#include <stdexcept>

#include "model/host_memory.hpp"
#include "model/memory_limits.hpp"
#include "model/memory.hpp"

namespace {

using namespace weft::model;

MachineSpec spec_with_budget(std::int64_t host_bytes) {
  MachineSpec spec;
  spec.mesh = {4};
  spec.cores_per_device = 2;
  spec.host_bytes = host_bytes;
  return spec;
}

}  // namespace

TEST_CASE("The host budget is memory.host_bytes, or half the memory the process may use", "[model][hardening]") {
  CHECK(host_budget_bytes(spec_with_budget(12345)) == 12345);
  REQUIRE(physical_memory_bytes() > 0);
  CHECK(memory_limit_bytes() > 0);
  CHECK(memory_limit_bytes() <= physical_memory_bytes());
  CHECK(host_budget_bytes(spec_with_budget(0)) == memory_limit_bytes() / 2);
}

TEST_CASE("A host buffer past the budget is refused on every device at once, naming it", "[model][hardening]") {
  const MachineSpec spec = spec_with_budget(1008);
  const Topology topology(spec);
  Memory memory(spec, topology);
  memory.host_allocate("small", ElementType::f32, Shape{50});  // 200 bytes on each of 4 devices: 800
  try {
    memory.host_allocate("big", ElementType::f32, Shape{20});  // 80 x 4 = 320 more: 1120
    FAIL("no error");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()) ==
          "host buffer 'big' of shape [20] takes 80 bytes on each of 4 devices, 320 in all, but the host memory "
          "budget is 1008 bytes (memory.host_bytes), 800 of them already taken");
  }
  CHECK(memory.find_named(0, "big") == nullptr);              // no device got a copy
  memory.host_allocate("fits", ElementType::i32, Shape{13});  // 52 x 4 = 208 more: exactly the budget
  CHECK(memory.buffers().size() == 8);
}

TEST_CASE("A kernel allocation past the host budget is out_of_memory naming the buffer", "[model][hardening]") {
  const MachineSpec spec = spec_with_budget(4 * 100 + 64);
  const Topology topology(spec);
  Memory memory(spec, topology);
  memory.host_allocate("x", ElementType::f32, Shape{25});  // 400 bytes
  Failure failure;
  CHECK(memory.allocate({0, 0}, Space::vmem, ElementType::f32, Shape{16}, failure) != nullptr);  // 464
  CHECK(memory.allocate({0, 1}, Space::vmem, ElementType::f32, Shape{16}, failure) == nullptr);
  CHECK(failure.verdict == Verdict::out_of_memory);
  CHECK(failure.message ==
        "device 0 core 1 allocates 64 bytes of vmem for buffer 100, but the buffers of this execution already take "
        "464 bytes of the host memory budget of 464 (memory.host_bytes)");
}
