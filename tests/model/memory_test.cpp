// Memory: host buffers, SPMD-symmetric kernel allocation ids, asymmetric allocation, capacity
// accounting and the scope of each space (per core or per device).

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "model/memory.hpp"

namespace {

using namespace weft::model;

MachineSpec spec_of(int devices, int cores) {
  MachineSpec spec;
  spec.mesh = {devices};
  spec.cores_per_device = cores;
  return spec;
}

// A Memory with the topology it refers to.
struct Fixture {
  explicit Fixture(MachineSpec spec_) : spec(std::move(spec_)), topology(spec), memory(spec, topology) {}
  MachineSpec spec;
  Topology topology;
  Memory memory;

  Buffer* allocate(CoreId by, Space space, const Shape& shape, ElementType type = ElementType::f32) {
    Failure failure;
    Buffer* buffer = memory.allocate(by, space, type, shape, failure);
    INFO(failure.message);
    REQUIRE(buffer != nullptr);
    return buffer;
  }
};

}  // namespace

TEST_CASE("A host buffer exists on every device with the same id and its own contents", "[model]") {
  Fixture f(spec_of(3, 2));
  const int x = f.memory.host_allocate("x", ElementType::f32, Shape{4, 8});
  const int y = f.memory.host_allocate("y", ElementType::i32, Shape{2});
  CHECK(x != y);
  Buffer* first = nullptr;
  for (int device = 0; device < 3; ++device) {
    CAPTURE(device);
    Buffer* bx = f.memory.find_named(device, "x");
    REQUIRE(bx != nullptr);
    CHECK(bx->info().id == x);
    CHECK(bx->info().device == device);
    CHECK(bx->info().space == Space::hbm);
    CHECK(bx->info().core == -1);
    CHECK(bx->info().type == ElementType::f32);
    CHECK(bx->info().shape == Shape{4, 8});
    CHECK(bx->info().name == "x");
    CHECK(f.memory.find_named(device, "y")->info().id == y);
    // Every core of the device sees that instance through find().
    CHECK(f.memory.find(Space::hbm, x, {device, 0}) == bx);
    CHECK(f.memory.find(Space::hbm, x, {device, 1}) == bx);
    if (first) CHECK(bx != first);
    first = bx;
  }
  CHECK(f.memory.find_named(0, "z") == nullptr);
  CHECK(f.memory.buffers().size() == 6);
}

TEST_CASE("A host buffer name may be allocated only once", "[model]") {
  Fixture f(spec_of(2, 1));
  f.memory.host_allocate("x", ElementType::f32, Shape{4});
  CHECK_THROWS_AS(f.memory.host_allocate("x", ElementType::i32, Shape{2}), std::invalid_argument);
}

TEST_CASE("A host buffer past the hbm capacity is a setup error", "[model]") {
  MachineSpec spec = spec_of(2, 1);
  spec.hbm_bytes = 64;
  Fixture f(spec);
  f.memory.host_allocate("a", ElementType::f32, Shape{12});  // 48 bytes
  CHECK_THROWS_WITH(f.memory.host_allocate("b", ElementType::f32, Shape{5}),
                    Catch::Contains("'b'") && Catch::Contains("20 bytes") && Catch::Contains("48 of 64"));
}

TEST_CASE("Kernel allocation ids start at 100 on every core and are the same everywhere", "[model]") {
  Fixture f(spec_of(2, 2));
  for (int device = 0; device < 2; ++device)
    for (int core = 0; core < 2; ++core) {
      CAPTURE(device, core);
      const CoreId by{device, core};
      CHECK(f.allocate(by, Space::vmem, Shape{8})->info().id == first_kernel_buffer_id);
      CHECK(f.allocate(by, Space::smem, Shape{1}, ElementType::i32)->info().id == first_kernel_buffer_id + 1);
      CHECK(f.allocate(by, Space::vmem, Shape{2, 8})->info().id == first_kernel_buffer_id + 2);
    }
  CHECK(first_kernel_buffer_id == 100);
  // A host buffer allocated first does not shift the kernel ids.
  Fixture g(spec_of(1, 1));
  g.memory.host_allocate("x", ElementType::f32, Shape{4});
  CHECK(g.allocate({0, 0}, Space::vmem, Shape{4})->info().id == 100);
}

TEST_CASE("Allocating a different buffer under the same id on another core is a kernel_error naming both cores",
          "[model]") {
  Fixture f(spec_of(2, 1));
  f.allocate({0, 0}, Space::vmem, Shape{8, 128});
  Failure failure;
  SECTION("different shape") {
    CHECK(f.memory.allocate({1, 0}, Space::vmem, ElementType::f32, Shape{8, 64}, failure) == nullptr);
    CHECK_THAT(failure.message, Catch::Contains("[8, 128]") && Catch::Contains("[8, 64]"));
  }
  SECTION("different space") {
    CHECK(f.memory.allocate({1, 0}, Space::smem, ElementType::f32, Shape{8, 128}, failure) == nullptr);
    CHECK_THAT(failure.message, Catch::Contains("vmem") && Catch::Contains("smem"));
  }
  SECTION("different element type") {
    CHECK(f.memory.allocate({1, 0}, Space::vmem, ElementType::i32, Shape{8, 128}, failure) == nullptr);
    CHECK_THAT(failure.message, Catch::Contains("f32") && Catch::Contains("i32"));
  }
  CHECK(failure.verdict == Verdict::kernel_error);
  CHECK_THAT(failure.message,
             Catch::Contains("buffer 100") && Catch::Contains("device 0 core 0") && Catch::Contains("device 1 core 0"));
}

TEST_CASE("A symmetric allocation on another core is not an error", "[model]") {
  Fixture f(spec_of(2, 1));
  Buffer* a = f.allocate({0, 0}, Space::vmem, Shape{8});
  Buffer* b = f.allocate({1, 0}, Space::vmem, Shape{8});
  CHECK(a != b);
  CHECK(a->info().id == b->info().id);
  CHECK(a->info().device == 0);
  CHECK(b->info().device == 1);
}

TEST_CASE("An allocation past capacity is out_of_memory naming space, request and use", "[model]") {
  MachineSpec spec = spec_of(1, 2);
  spec.vmem_bytes = 100;
  Fixture f(spec);
  f.allocate({0, 0}, Space::vmem, Shape{20});  // 80 bytes
  Failure failure;
  CHECK(f.memory.allocate({0, 0}, Space::vmem, ElementType::f32, Shape{6}, failure) == nullptr);
  CHECK(failure.verdict == Verdict::out_of_memory);
  CHECK_THAT(failure.message, Catch::Contains("vmem") && Catch::Contains("allocates 24 bytes") &&
                                  Catch::Contains("80 of 100") && Catch::Contains("device 0 core 0"));
  // vmem is accounted per core: core 1 still has room for its own 80 bytes.
  CHECK(f.allocate({0, 1}, Space::vmem, Shape{20}) != nullptr);
}

TEST_CASE("An allocation that exactly fills a space succeeds and the next one fails", "[model]") {
  MachineSpec spec = spec_of(1, 1);
  spec.vmem_bytes = 100;
  Fixture f(spec);
  f.allocate({0, 0}, Space::vmem, Shape{20});
  f.allocate({0, 0}, Space::vmem, Shape{5});  // 100 bytes in total
  Failure full;
  CHECK(f.memory.allocate({0, 0}, Space::vmem, ElementType::f32, Shape{1}, full) == nullptr);
  CHECK(full.verdict == Verdict::out_of_memory);
  CHECK_THAT(full.message, Catch::Contains("allocates 4 bytes") && Catch::Contains("100 of 100"));
}

TEST_CASE("An allocation counts its element type's bytes against the capacity", "[model][dtype]") {
  MachineSpec spec = spec_of(1, 1);
  spec.vmem_bytes = 100;
  Fixture f(spec);
  f.allocate({0, 0}, Space::vmem, Shape{40}, ElementType::bf16);  // 80 bytes
  f.allocate({0, 0}, Space::vmem, Shape{16}, ElementType::u8);    // 96
  f.allocate({0, 0}, Space::vmem, Shape{2}, ElementType::i16);    // 100
  Failure failure;
  CHECK(f.memory.allocate({0, 0}, Space::vmem, ElementType::boolean, Shape{1}, failure) == nullptr);
  CHECK_THAT(failure.message, Catch::Contains("allocates 1 bytes") && Catch::Contains("100 of 100"));
}

TEST_CASE("Capacities of different spaces are accounted separately", "[model]") {
  MachineSpec spec = spec_of(1, 1);
  spec.vmem_bytes = 16;
  spec.smem_bytes = 16;
  Fixture f(spec);
  f.allocate({0, 0}, Space::vmem, Shape{4});
  f.allocate({0, 0}, Space::smem, Shape{4});
  Failure failure;
  CHECK(f.memory.allocate({0, 0}, Space::smem, ElementType::i32, Shape{1}, failure) == nullptr);
  CHECK_THAT(failure.message, Catch::Contains("smem"));
}

TEST_CASE("vmem is per core while hbm and vmem_shared are per device", "[model]") {
  Fixture f(spec_of(2, 2));
  // Every core allocates the same three buffers in the same order.
  Buffer* buffers[2][2][3];
  for (int device = 0; device < 2; ++device)
    for (int core = 0; core < 2; ++core) {
      buffers[device][core][0] = f.allocate({device, core}, Space::vmem, Shape{4});
      buffers[device][core][1] = f.allocate({device, core}, Space::hbm, Shape{4});
      buffers[device][core][2] = f.allocate({device, core}, Space::vmem_shared, Shape{4});
    }
  for (int device = 0; device < 2; ++device) {
    CAPTURE(device);
    CHECK(buffers[device][0][0] != buffers[device][1][0]);
    CHECK(buffers[device][0][0]->info().core == 0);
    CHECK(buffers[device][1][0]->info().core == 1);
    CHECK(buffers[device][0][0]->ref_count == 1);
    for (int k = 1; k < 3; ++k) {
      CAPTURE(k);
      CHECK(buffers[device][0][k] == buffers[device][1][k]);
      CHECK(buffers[device][0][k]->ref_count == 2);
      CHECK(buffers[device][0][k]->info().core == -1);
      CHECK(f.memory.find(buffers[device][0][k]->info().space, 100 + k, {device, 1}) == buffers[device][0][k]);
    }
    CHECK(f.memory.find(Space::vmem, 100, {device, 1}) == buffers[device][1][0]);
  }
  CHECK(buffers[0][0][2] != buffers[1][0][2]);
  // 2 devices x 2 cores of vmem, plus one hbm and one vmem_shared buffer per device.
  CHECK(f.memory.buffers().size() == 8);
  CHECK(f.memory.find(Space::vmem, 103, {0, 0}) == nullptr);
  CHECK(f.memory.find(Space::smem, 100, {0, 0}) == nullptr);
}

TEST_CASE("A shared buffer counts against its device's capacity once", "[model]") {
  MachineSpec spec = spec_of(1, 4);
  spec.vmem_shared_bytes = 40;
  Fixture f(spec);
  for (int core = 0; core < 4; ++core) f.allocate({0, core}, Space::vmem_shared, Shape{10});
  Failure failure;
  CHECK(f.memory.allocate({0, 0}, Space::vmem_shared, ElementType::f32, Shape{1}, failure) == nullptr);
  CHECK(failure.verdict == Verdict::out_of_memory);
  CHECK_THAT(failure.message, Catch::Contains("vmem_shared") && Catch::Contains("40 of 40"));
}

TEST_CASE("With compat jax vmem_shared is per core", "[model]") {
  MachineSpec spec = spec_of(1, 2);
  spec.compat = CompatProfile::jax;
  Fixture f(spec);
  Buffer* a = f.allocate({0, 0}, Space::vmem_shared, Shape{4});
  Buffer* b = f.allocate({0, 1}, Space::vmem_shared, Shape{4});
  CHECK(a != b);
  CHECK(a->info().id == b->info().id);
  CHECK(a->ref_count == 1);
  CHECK(b->ref_count == 1);
  CHECK(a->info().core == 0);
  CHECK(b->info().core == 1);
  CHECK(f.memory.find(Space::vmem_shared, a->info().id, {0, 1}) == b);
  // hbm stays per device under the jax profile.
  Buffer* h0 = f.allocate({0, 0}, Space::hbm, Shape{4});
  Buffer* h1 = f.allocate({0, 1}, Space::hbm, Shape{4});
  CHECK(h0 == h1);
}

TEST_CASE("New kernel buffers follow the uninitialized policy", "[model]") {
  MachineSpec spec = spec_of(1, 1);
  spec.uninitialized = Uninitialized::zero;
  Fixture f(spec);
  Buffer* b = f.allocate({0, 0}, Space::vmem, Shape{3}, ElementType::i32);
  CHECK(b->data<std::int32_t>()[0] == 0);
  CHECK(b->data<std::int32_t>()[2] == 0);
  Fixture g(spec_of(1, 1));
  Buffer* c = g.allocate({0, 0}, Space::vmem, Shape{3}, ElementType::i32);
  CHECK(c->data<std::int32_t>()[1] == INT32_MAX);
}
