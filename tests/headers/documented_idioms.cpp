// The idioms docs/kernel-api.md, docs/unit-tests.md and docs/porting-from-pallas.md show,
// written as a user writes them (designated initialisers naming some fields, defaults for the
// rest), against the public headers only: public_headers_test.cmake compiles this file with
// -Wall -Wextra -Wpedantic -Werror, as a user's build may. It is compiled, never run.
#include <weft/weft.hpp>

namespace sim = weft::sim;
namespace pallas = weft::sim::pallas;

void kernel_idioms(sim::Core& core) {
  const int left = (core.device_id() + core.num_devices() - 1) % core.num_devices();
  auto in = core.hbm<float>("x");
  auto out = core.vmem<float>({8, 128});
  auto ready = core.semaphore();
  auto recv = core.dma_semaphore();
  auto send = core.dma_semaphore();
  core.signal(ready, 1, {.device = left});
  core.signal(ready, 1, {.core = 0});
  core.signal(ready, 1, {.device = left, .core = 0});
  core.dma_start(in, out, recv, send, {.device = left, .core = 0, .add = true}).wait_recv();
  core.dma_start(in, out, recv, {}, {.add = true}).wait_recv();
  core.describe_dma(in, out, recv, send, {.device = left}).wait_recv();
  core.sync_copy(in, out, {.add = true});
}

sim::ScenarioDefinition pallas_idioms() {
  sim::ScenarioDefinition scenario{.name = "idioms", .summary = "the documented idioms"};
  scenario.kernel = pallas::pallas_call(
      {.grid = {2}, .in = {pallas::any<float>("x")}, .out = {pallas::any<float>("out")}}, [](pallas::Program&) {});
  return scenario;
}

bool testing_idioms() {
  const weft::testing::Scenario scenario{.name = "idioms", .scenarios = {pallas_idioms()}};
  const auto swept = weft::testing::sweep(scenario, {.seeds = {0, 9}, .strategy = "pct"});
  const auto explored = weft::testing::explore(
      {.name = "idioms", .scenarios = {pallas_idioms()}, .sets = {"topology.devices=3"}}, {.max_executions = 10});
  const sim::ScenarioRegistry mine{pallas_idioms()};
  const sim::Request request = sim::resolve_request({.scenario = "idioms", .sets = {"topology.devices=2"}}, mine);
  return swept.as_expected && explored.as_expected && request.scenario != nullptr;
}
