// Element types (model/element_type.hpp) through the kernel API: every type's values survive a
// load, a store and a DMA unchanged; a DMA's semaphores count the type's real byte size; a fresh
// buffer holds the type's uninitialized value under the nan policy.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim_test_support.hpp"

using namespace weft;

namespace {

// Six distinct values of T, exactly representable (bool: alternating).
template <class T>
T value_at(int k) {
  if constexpr (std::is_same_v<T, bool>) return k % 2 == 1;
  else if constexpr (std::is_signed_v<T> || !std::is_integral_v<T>) return T(static_cast<float>(k * 3 - 7));
  else return static_cast<T>(k * 3 + 1);
}

// One core, race detection on, the nan memory policy (fresh buffers hold each type's value).
sim::Config one_core() {
  sim::Config config = sim::test::machine_of(1, 1, true);
  config.machine.uninitialized = model::Uninitialized::nan;
  return config;
}

// x (host) -> load -> store into vmem -> DMA into out (host); the kernel waits on the receive
// semaphore for the bytes it expects (six elements of sizeof(T)), so a DMA that counted other
// sizes leaves the cell non-zero (semaphore_leak) or never wakes the wait (deadlock).
template <class T>
sim::ScenarioDefinition round_trip() {
  sim::ScenarioDefinition s;
  s.name = "round_trip";
  s.setup = [](sim::Host& host) {
    host.hbm<T>("x", {2, 3});
    host.hbm<T>("out", {2, 3});
    auto x = host.data<T>("x", 0);
    for (int k = 0; k < 6; ++k) x[k] = value_at<T>(k);
  };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<T>("x");
    auto out = core.hbm<T>("out");
    auto scratch = core.vmem<T>({2, 3});
    auto sem = core.dma_semaphore();
    core.store(scratch, core.load(x));
    const sim::Dma dma = core.dma_start(scratch, out, sem);
    core.check(dma.bytes() == 6 * static_cast<std::int64_t>(sizeof(T)), "the DMA counts the type's bytes");
    core.wait(sem, 6 * static_cast<std::int64_t>(sizeof(T)));
  };
  s.check = [](const sim::Host& host) -> std::string {
    const auto out = host.data<T>("out", 0);
    for (int k = 0; k < 6; ++k)
      if (!(out[k] == value_at<T>(k))) return "element " + std::to_string(k) + " changed";
    return "";
  };
  return s;
}

template <class T>
bool is_uninitialized(T value) {
  if constexpr (std::numeric_limits<T>::has_quiet_NaN) return Eigen::numext::isnan(value);
  else return value == std::numeric_limits<T>::max();
}

// A fresh vmem buffer, loaded: every element is the type's uninitialized value.
template <class T>
sim::ScenarioDefinition fresh_buffer() {
  sim::ScenarioDefinition s;
  s.name = "fresh_buffer";
  s.kernel = [](sim::Core& core) {
    const sim::Tile<T> tile = core.load(core.vmem<T>({3, 5}));
    for (Eigen::Index k = 0; k < tile.size(); ++k) core.check(is_uninitialized<T>(tile(k)), "uninitialized");
  };
  return s;
}

template <class T>
void check_type() {
  CAPTURE(model::to_string(model::element_type_of<T>()));
  for (std::uint64_t seed : {0u, 1u}) {
    const auto result = sim::test::run(round_trip<T>(), one_core(), seed);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
  const auto result = sim::test::run(fresh_buffer<T>(), one_core());
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
}

}  // namespace

TEST_CASE("Every element type round-trips through load, store and DMA, counting its own bytes", "[sim][dtype]") {
  check_type<float>();
  check_type<Eigen::bfloat16>();
  check_type<Eigen::half>();
  check_type<std::int32_t>();
  check_type<std::int16_t>();
  check_type<std::int8_t>();
  check_type<std::uint8_t>();
  check_type<std::uint32_t>();
  check_type<bool>();
}

TEST_CASE("A wait for the bytes of another element size never completes", "[sim][dtype]") {
  // The same kernel shape, but a bf16 copy waited for as if it were f32: the byte count is
  // the type's, so half the wait is left over and the kernel deadlocks.
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<Eigen::bfloat16>("x", {8}); };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<Eigen::bfloat16>("x");
    auto scratch = core.vmem<Eigen::bfloat16>({8});
    auto sem = core.dma_semaphore();
    core.dma_start(x, scratch, sem);
    core.wait(sem, 8 * 4);
  };
  const auto result = sim::test::run(s, one_core());
  CHECK(result.verdict == model::Verdict::deadlock);
  CHECK(result.details.find("needs 32, holds 16") != std::string::npos);
}
