// Scoped allocations (Core::run_scoped, Pallas' run_scoped): scratch freed at the scope's end and
// reused by later scopes; a DMA that outlives its scope, or an access after it, is reported.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::explore;
using sim::test::machine_of;
using sim::test::run;

namespace {

constexpr int scope_line = __LINE__ + 9;  // the run_scoped call of copy_through_scratch

// Device 0 copies `x` into a scoped vmem buffer of its own and, if `wait`, waits for the copy
// before the scope ends; then stores 7 into `y` (after the scope).
sim::ScenarioDefinition copy_through_scratch(bool wait) {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("x", {8, 128}); };
  s.kernel = [wait](sim::Core& core) {
    auto recv = core.dma_semaphore();
    core.run_scoped([&] {
      auto scratch = core.vmem<float>({8, 128});
      auto copy = core.dma_start(core.hbm<float>("x"), scratch, recv);
      if (wait) copy.wait();
    });
  };
  return s;
}

}  // namespace

TEST_CASE("A scope's buffers are freed at its end and their ids and capacity reused", "[sim][scoped]") {
  // Each scope takes 3/4 of vmem: two at once would not fit, one after the other do.
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    const std::int64_t rows = core.param("rows");
    std::vector<int> ids;
    for (int round = 0; round < 3; ++round)
      core.run_scoped([&] {
        auto big = core.vmem<float>({rows, 1024});
        ids.push_back(big.slice().buffer->info().id);
        core.store(big, sim::Tile<float>::Constant(rows, 1024, 1.0f));
      });
    core.check(ids[0] == ids[1] && ids[1] == ids[2], "the same id each round");
    auto after = core.vmem<float>({rows, 1024});  // outside any scope: fits again, same id
    core.check(after.slice().buffer->info().id == ids[0], "the id after the scopes");
  };
  sim::Config config = machine_of(1, 1, true);
  const std::int64_t rows = config.machine.vmem_bytes * 3 / 4 / (1024 * 4);
  s.params = {{"rows", rows}};
  const auto result = run(s, config);
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);

  // Without scopes the second allocation does not fit.
  sim::ScenarioDefinition unscoped;
  unscoped.params = s.params;
  unscoped.kernel = [](sim::Core& core) {
    (void)core.vmem<float>({core.param("rows"), 1024});
    (void)core.vmem<float>({core.param("rows"), 1024});
  };
  CHECK(run(unscoped, config).verdict == model::Verdict::out_of_memory);
}

TEST_CASE("A DMA waited inside its scope is ok in every interleaving", "[sim][scoped]") {
  const auto report = explore(copy_through_scratch(true), machine_of(1, 1, true));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
}

TEST_CASE("A DMA that outlives its scope is in flight at the end, or races with it", "[sim][scoped]") {
  // Not waited: the copy either has not landed when the scope ends (dma_in_flight, naming the
  // scope), or landed unawaited (a race of its write with the end). Never ok.
  const auto report = explore(copy_through_scratch(false), machine_of(1, 1, true));
  CHECK(report.exhausted);
  CHECK_FALSE(report.found(model::Verdict::ok));
  CHECK(report.found(model::Verdict::dma_in_flight));
  CHECK(report.found(model::Verdict::data_race));
  for (const auto& found : report.verdicts) {
    INFO(found.first.details);
    if (found.verdict == model::Verdict::dma_in_flight)
      CHECK_THAT(found.first.details,
                 Catch::Contains("ends the scope of run_scoped at scoped_test.cpp:" + std::to_string(scope_line)));
  }
  // Without race detection the landed copy goes unseen there, and leaves its bytes on the
  // semaphore at the exit.
  const auto quiet = explore(copy_through_scratch(false), machine_of(1, 1, false));
  CHECK(quiet.found(model::Verdict::dma_in_flight));
  CHECK(quiet.found(model::Verdict::semaphore_leak));
  CHECK_FALSE(quiet.found(model::Verdict::ok));
}

TEST_CASE("Touching a scoped buffer after its scope is a kernel_error naming the scope", "[sim][scoped]") {
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    std::optional<sim::Ref<float>> kept;
    core.run_scoped([&] { kept = core.vmem<float>({8, 128}); });
    (void)core.load(*kept);
  };
  const auto result = run(s, machine_of(1, 1, true));
  REQUIRE(result.verdict == model::Verdict::kernel_error);
  CHECK_THAT(result.details, Catch::Contains("after the scope it was allocated in (run_scoped at scoped_test.cpp:"));
  CHECK_THAT(result.details, Catch::Contains("reads vmem buffer 100"));
}

TEST_CASE("Cores in different scopes at once allocate different shapes under one id", "[sim][scoped]") {
  // Core 0 finishes its first scope (f32[8, 128]) and opens a second (i32[4]) while core 1 may
  // still be in its first: the same id, two shapes, and no asymmetry, since each core's k-th
  // allocation is the same.
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    core.run_scoped([&] { core.store(core.vmem<float>({8, 128}), sim::Tile<float>::Constant(8, 128, 1.0f)); });
    core.run_scoped([&] { core.store(core.vmem<std::int32_t>({1, 4}), sim::Tile<std::int32_t>::Constant(1, 4, 2)); });
  };
  const auto report = explore(s, machine_of(1, 2, true));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
}

TEST_CASE("Scoped scratch is vmem or smem", "[sim][scoped]") {
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) { core.run_scoped([&] { (void)core.vmem_shared<float>({8}); }); };
  const auto result = run(s, machine_of(1, 2, true));
  REQUIRE(result.verdict == model::Verdict::kernel_error);
  CHECK_THAT(result.details, Catch::Contains("inside the scope of run_scoped at scoped_test.cpp:"));
}
