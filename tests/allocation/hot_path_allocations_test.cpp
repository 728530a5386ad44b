// No allocation on the hot path: the number of heap allocations of an execution does not grow
// with its number of steps. Counted by replacing the global operator new in this test
// executable only (tests/allocation/ is its own executable for that reason).
#include <atomic>
#include <cstdlib>
#include <new>

#include <catch2/catch.hpp>

#include "bench/workloads.hpp"
#include "scenarios/registry.hpp"
#include "sim/api/core.hpp"
#include "sim/engine/simulation.hpp"

namespace {

std::atomic<std::uint64_t> allocations{0};

}  // namespace

// Every allocating form counts, and every form frees with std::free (a sanitizer build checks
// that what one family allocates the same family frees). GCC cannot see that the two pair up.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t bytes) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* memory = std::malloc(bytes == 0 ? 1 : bytes)) return memory;
  throw std::bad_alloc();
}
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(bytes == 0 ? 1 : bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept { return operator new(bytes, tag); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
#pragma GCC diagnostic pop

namespace {

using namespace weft;

struct Counted {
  std::uint64_t allocations = 0;
  std::uint64_t steps = 0;
};

// Allocations of one execution (seed 1) after a warm-up execution (seed 0) of the same length.
Counted count(const sim::ScenarioDefinition& scenario, const sim::Config& config, const sim::Params& params) {
  sim::Simulation simulation(config, scenario, params);
  (void)simulation.run_seed(0);
  const std::uint64_t before = allocations.load();
  const auto result = simulation.run_seed(1);
  INFO(result.details);
  REQUIRE(result.verdict == model::Verdict::ok);
  return {allocations.load() - before, result.steps};
}

// A core loop of local DMAs: start, then wait.
sim::ScenarioDefinition dma_loop() {
  sim::ScenarioDefinition s;
  s.name = "dma_loop";
  s.params = {{"iterations", 10}};
  s.kernel = [](sim::Core& core) {
    auto source = core.vmem<float>({8});
    auto target = core.vmem<float>({8});
    auto recv = core.dma_semaphore();
    core.store(source, sim::Tile<float>::Zero(1, 8));
    for (std::int64_t i = 0, n = core.param("iterations"); i < n; ++i) core.dma_start(source, target, recv).wait();
  };
  return s;
}

// A core loop of the memory and synchronisation verbs of the later table entries: a masked
// store and load, a device barrier, a sync copy that adds, a swap.
sim::ScenarioDefinition verb_loop() {
  sim::ScenarioDefinition s;
  s.name = "verb_loop";
  s.params = {{"iterations", 10}};
  s.kernel = [](sim::Core& core) {
    auto shared = core.vmem_shared<float>({core.num_cores(), 8});
    auto mine = shared[core.core_id()];
    auto copy = core.vmem<float>({8});
    sim::Mask odd(1, 8);
    for (int k = 0; k < 8; ++k) odd(0, k) = k % 2 == 1;
    const sim::Tile<float> tile = sim::Tile<float>::Zero(1, 8);
    sim::Tile<float> loaded(1, 8);
    for (std::int64_t i = 0, n = core.param("iterations"); i < n; ++i) {
      core.store(mine, tile, odd);
      core.load_into(mine, loaded, odd, 1.0f);
      core.device_barrier();
      core.sync_copy(mine, copy, {.add = true});
      loaded = core.swap(copy, tile);
    }
  };
  return s;
}

// Runs `loop` for 100 and for 1,000 iterations on 2 devices of 2 cores, with async and eager
// DMAs, race detection off and on: ten times the steps may cost a handful more allocations,
// never some per step. (The DMA records of an execution live until its end, since reports
// name them: a vector that doubles, so 10x the DMAs costs a few more allocations.)
void check_no_growth(const sim::ScenarioDefinition& loop) {
  for (const auto mode : {model::DmaExecution::async, model::DmaExecution::eager}) {
    for (const bool races : {false, true}) {
      CAPTURE(static_cast<int>(mode), races);
      auto config = bench::collective_config(2, 2, races);
      config.machine.dma_execution = mode;
      const Counted shorter = count(loop, config, {{"iterations", 100}});
      const Counted longer = count(loop, config, {{"iterations", 1000}});
      CHECK(longer.steps > 9 * shorter.steps);
      CHECK(longer.allocations <= shorter.allocations + 8);
    }
  }
}

}  // namespace

TEST_CASE("A step allocates nothing: masked loads and stores, swaps, device barriers, sync copies", "[allocation]") {
  check_no_growth(verb_loop());
}

TEST_CASE("A step allocates nothing: loads, stores, signals and waits", "[allocation]") {
  const auto mix = bench::operation_mix();
  for (const bool races : {false, true}) {
    CAPTURE(races);
    const Counted shorter = count(mix, bench::operation_mix_config(races), {{"iterations", 100}});
    const Counted longer = count(mix, bench::operation_mix_config(races), {{"iterations", 1000}});
    CHECK(longer.steps > 9 * shorter.steps);
    // 36,000 more steps; an execution's own set-up allocations vary a little with its schedule.
    CHECK(longer.allocations <= shorter.allocations + 8);
  }
}

TEST_CASE("A DMA allocates nothing but its record's share of a growing vector", "[allocation]") {
  check_no_growth(dma_loop());
}
