// Semaphore arrays (Core::semaphores, Core::dma_semaphores): one visible allocation of
// consecutive ids; each element is a semaphore of its own (its own cells, its own race edges).

#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::machine_of;
using sim::test::run;

TEST_CASE("An array of DMA semaphores has consecutive ids, and each element counts its own DMA", "[sim][arrays]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("x", {3, 8}); };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto copies = core.vmem<float>({3, 8});
    const auto before = core.semaphore();
    const auto sems = core.dma_semaphores(3);
    const auto after = core.semaphore();
    core.check(sems.size() == 3, "three elements");
    for (int k = 0; k < 3; ++k)
      core.check(sems[k].id == before.id + 1 + k, "consecutive ids after the earlier semaphore");
    core.check(after.id == before.id + 4, "the array took three ids");
    std::vector<sim::Dma> dmas;
    for (int k = 0; k < 3; ++k) dmas.push_back(core.dma_start(x[k], copies[k], sems[k]));
    for (int k = 2; k >= 0; --k) core.wait(sems[k], dmas[static_cast<std::size_t>(k)].bytes());
  };
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const auto result = run(s, machine_of(1, 1, true), seed);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
}

TEST_CASE("A signal to one element does not wake a wait on another", "[sim][arrays]") {
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    const auto sems = core.semaphores(2);
    core.signal(sems[1]);
    core.wait(sems[0]);
  };
  const auto result = run(s, machine_of(1, 1, true));
  CHECK(result.verdict == model::Verdict::deadlock);
  CHECK(result.details.find("waits on semaphore 2000") != std::string::npos);
}

TEST_CASE("An element of an array orders a store before a load as a lone semaphore does", "[sim][arrays]") {
  // Core 0 stores and signals element 1 to core 1, which waits on element 1 and loads: ordered.
  // When core 0 signals element 1 before its store (and element 0 after it), the load that
  // follows the wait on element 1 is not ordered after the store: a race in every schedule.
  for (const bool signal_first : {false, true}) {
    CAPTURE(signal_first);
    sim::ScenarioDefinition s;
    s.setup = [](sim::Host& host) { host.hbm<float>("x", {8}); };
    s.kernel = [signal_first](sim::Core& core) {
      auto x = core.hbm<float>("x");
      const auto sems = core.semaphores(2);
      if (core.core_id() == 0) {
        if (signal_first) core.signal(sems[1], 1, {.core = 1});
        core.store(x, sim::Tile<float>::Constant(1, 8, 1.0f));
        core.signal(sems[signal_first ? 0 : 1], 1, {.core = 1});
      } else {
        core.wait(sems[1], 1);
        static_cast<void>(core.load(x));
        if (signal_first) core.wait(sems[0], 1);
      }
    };
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      const auto result = run(s, machine_of(1, 2, true), seed);
      INFO(result.details);
      CHECK(result.verdict == (signal_first ? model::Verdict::data_race : model::Verdict::ok));
    }
  }
}
