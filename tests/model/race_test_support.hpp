#pragma once
// Helpers for the race detector tests: a Machine with race detection on, and one-line loads,
// stores, signals and waits that name their kernel source line (all in "kernels/race.cpp").

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "machine_test_support.hpp"

namespace weft::model::test {

inline SourceLine at(int line) { return SourceLine{"kernels/race.cpp", line}; }

// The cores the tests name: three cores of device 0.
inline constexpr CoreId a{0, 0};
inline constexpr CoreId b{0, 1};
inline constexpr CoreId c{0, 2};

class RaceMachine {
 public:
  explicit RaceMachine(const MachineSpec& spec, SemaphoreClocks mode = SemaphoreClocks::precise,
                       bool keep_going = false)
      : machine(spec) {
    machine.enable_race_detection(mode, keep_going);
  }

  // A host (hbm) buffer, one per device; returns the instance on `device`.
  Buffer* host(const std::string& name, const Shape& shape, int device = 0) {
    machine.memory().host_allocate(name, ElementType::f32, shape);
    Buffer* buffer = machine.memory().find_named(device, name);
    REQUIRE(buffer != nullptr);
    return buffer;
  }

  // Each returns whether the operation was allowed; a refusal leaves its finding in `failure`.
  bool store(CoreId by, Buffer* buffer, const Rect& rect, int line, float value = 1.0f) {
    const std::vector<float> in(static_cast<std::size_t>(rect.volume()), value);
    return test::store(machine, by, slice(buffer, rect), reinterpret_cast<const std::byte*>(in.data()), at(line),
                       failure);
  }
  bool load(CoreId by, Buffer* buffer, const Rect& rect, int line) {
    std::vector<float> out(static_cast<std::size_t>(rect.volume()) + 1);
    return test::load(machine, by, slice(buffer, rect), reinterpret_cast<std::byte*>(out.data()), at(line), failure);
  }
  void signal(CoreId by, int semaphore, CoreId target, std::int64_t amount) {
    REQUIRE(machine.add(by, semaphore, target, amount, failure));
  }
  // A wait as a kernel does it: only once the count suffices.
  void wait(CoreId by, int semaphore, std::int64_t amount) {
    const int global = machine.topology().global(by);
    REQUIRE(machine.semaphores().count(semaphore, global) >= amount);
    machine.take(semaphore, global, amount);
  }
  int start_dma(CoreId by, const Slice& source, const Slice& target, int device, int recv, int send, int line) {
    const int id = machine.start_dma(by, {source, target, {device, by.core}, recv, send}, at(line), failure);
    INFO(failure.message);
    REQUIRE(id >= 0);
    return id;
  }
  bool phase(int dma) { return machine.run_dma_phase(dma, failure); }
  const std::vector<std::string>& reports() const { return machine.races()->reports(); }

  Machine machine;
  Failure failure;
};

}  // namespace weft::model::test
