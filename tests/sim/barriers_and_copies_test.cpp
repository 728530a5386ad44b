// The device barrier, sync copies, DMAs into another core, and DMAs that add, through the
// kernel API: what each orders (race verdicts), deadlock reports, and the explorer.

#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::explore;
using sim::test::machine_of;
using sim::test::run;

namespace {

// Each of a device's cores writes its own row of a shared buffer, then (with the barrier) reads
// every row: the barrier orders every write before every read.
sim::ScenarioDefinition rows_then_all(bool barrier) {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("rows", {host.num_cores(), 4}); };
  s.kernel = [barrier](sim::Core& core) {
    auto rows = core.hbm<float>("rows");
    core.store(rows[core.core_id()], sim::Tile<float>::Constant(1, 4, float(core.core_id() + 1)));
    if (barrier) core.device_barrier();
    const auto all = core.load(rows);
    if (barrier) core.check(all.sum() == float(4 * core.num_cores() * (core.num_cores() + 1) / 2), "every row written");
  };
  return s;
}

}  // namespace

TEST_CASE("The device barrier orders every core's writes before every core's reads", "[sim][barrier]") {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    CAPTURE(seed);
    const auto ordered = run(rows_then_all(true), machine_of(2, 3, true), seed);
    INFO(ordered.details);
    CHECK(ordered.verdict == model::Verdict::ok);
    CHECK(run(rows_then_all(false), machine_of(2, 3, true), seed).verdict == model::Verdict::data_race);
  }
  const auto report = explore(rows_then_all(true), machine_of(1, 2, true));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
  CHECK(report.abandoned == 0);
}

TEST_CASE("A core that never reaches the barrier leaves the others waiting: a deadlock naming it", "[sim][barrier]") {
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    if (core.core_id() != 1) core.device_barrier();
  };
  const auto result = run(s, machine_of(1, 3, true));
  CHECK(result.verdict == model::Verdict::deadlock);
  CHECK(result.details.find("waits at the device barrier until all 3 cores of device 0 arrive; 2 have") !=
        std::string::npos);
}

TEST_CASE("A barrier on a device of one core is fine, and orders nothing across devices", "[sim][barrier]") {
  const auto result = run(rows_then_all(true), machine_of(4, 1, true));
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
  sim::ScenarioDefinition across;  // device 1 writes device 0's buffer: a barrier per device orders nothing
  across.setup = [](sim::Host& host) { host.hbm<float>("x", {4}); };
  across.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto sem = core.dma_semaphore();
    if (core.device_id() == 1) core.dma_start(x, x, sem, sem, 0).wait_send();
    core.device_barrier();
    if (core.device_id() == 0) {
      static_cast<void>(core.load(x));
      core.wait(sem, 16);
    }
  };
  CHECK(run(across, machine_of(2, 1, true)).verdict == model::Verdict::data_race);
}

TEST_CASE("sync_copy copies and waits in one call, adding when asked", "[sim][copy]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) {
    host.hbm<std::int32_t>("x", {2, 4});
    for (int k = 0; k < 8; ++k) host.data<std::int32_t>("x", 0)[k] = k;
  };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<std::int32_t>("x");
    auto acc = core.vmem<std::int32_t>({2, 4});
    core.sync_copy(x, acc);
    core.sync_copy(x, acc, {.add = true});
    core.sync_copy(x, acc, {.add = true});
    const auto sum = core.load(acc);  // no wait needed: each copy is done when sync_copy returns
    for (int k = 0; k < 8; ++k) core.check(sum(k / 4, k % 4) == 3 * k, "three times x");
  };
  for (const auto mode : {model::DmaExecution::async, model::DmaExecution::on_wait, model::DmaExecution::eager}) {
    auto config = machine_of(1, 1, true);
    config.machine.dma_execution = mode;
    const auto result = run(s, config);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
}

TEST_CASE("sync_copy's source read races with another core's unsynchronised store", "[sim][copy]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("x", {4}); };
  s.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    if (core.core_id() == 0) core.store(x, sim::Tile<float>::Zero(1, 4));
    else core.sync_copy(x, core.vmem<float>({4}));
  };
  const auto result = run(s, machine_of(1, 2, true));
  CHECK(result.verdict == model::Verdict::data_race);
  CHECK(result.details.find("DMA read [0:4]") != std::string::npos);
}

TEST_CASE("A DMA into another core of the device lands in that core's buffer and orders its wait", "[sim][dma]") {
  // Core 0 copies its scratch into core 1's once core 1 says its scratch exists; core 1 waits
  // for the bytes and loads them.
  sim::ScenarioDefinition s;
  s.kernel = [](sim::Core& core) {
    auto scratch = core.vmem<float>({8});
    auto recv = core.dma_semaphore();
    auto ready = core.semaphore();
    if (core.core_id() == 0) {
      core.store(scratch, sim::Tile<float>::Constant(1, 8, 5.0f));
      core.wait(ready);
      core.dma_start(scratch, scratch, recv, std::nullopt, {.core = 1});
    } else {
      core.signal(ready, 1, {.core = 0});
      core.wait(recv, 32);
      core.check((core.load(scratch) == 5.0f).all(), "core 0's values");
    }
  };
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const auto result = run(s, machine_of(1, 2, true), seed);
    INFO(result.details);
    CHECK(result.verdict == model::Verdict::ok);
  }
  const auto report = explore(s, machine_of(1, 2, true));
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
}

TEST_CASE("DMAs that add: ordered ones sum up, unordered ones into one target race", "[sim][dma]") {
  sim::ScenarioDefinition ordered;  // one core adds x into sum twice, waiting in between
  ordered.setup = [](sim::Host& host) {
    host.hbm<float>("x", {4});
    host.hbm<float>("sum", {4});
    host.data<float>("x", 0).setConstant(1.5f);
    host.data<float>("sum", 0).setConstant(10.0f);
  };
  ordered.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto sum = core.hbm<float>("sum");
    auto recv = core.dma_semaphore();
    for (int k = 0; k < 2; ++k) core.dma_start(x, sum, recv, std::nullopt, {.add = true}).wait();
  };
  ordered.check = [](const sim::Host& host) -> std::string {
    return (host.data<float>("sum", 0) == 13.0f).all() ? "" : "sum";
  };
  const auto result = run(ordered, machine_of(1, 1, true));
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);

  sim::ScenarioDefinition unordered;  // every device adds its x into device 0's sum at once
  unordered.setup = [](sim::Host& host) {
    host.hbm<float>("x", {4});
    host.hbm<float>("sum", {4});
  };
  unordered.kernel = [](sim::Core& core) {
    auto x = core.hbm<float>("x");
    auto sum = core.hbm<float>("sum");
    auto send = core.dma_semaphore();
    auto recv = core.dma_semaphore();
    core.dma_start(x, sum, recv, send, {.device = 0, .add = true}).wait_send();
    if (core.device_id() == 0) core.wait(recv, 16 * core.num_devices());
  };
  const auto raced = run(unordered, machine_of(3, 1, true));
  CHECK(raced.verdict == model::Verdict::data_race);
  CHECK(raced.details.find("DMA write [0:4]") != std::string::npos);
}
