// The DMA execution policy as one unit (sim/engine/dma_policy.hpp): which modes run phases
// inside the start or recompute them per step, the in-flight list, and which phases on_wait
// enables, with and without the jax profile's quirk.

#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "sim/engine/dma_policy.hpp"

using namespace weft;
using sim::Cell;
using sim::DmaPolicy;

namespace {

model::MachineSpec spec_of(model::DmaExecution mode, model::CompatProfile compat = model::CompatProfile::none) {
  model::MachineSpec spec;
  spec.dma_execution = mode;
  spec.compat = compat;
  return spec;
}

// The DMAs on_wait enables when `needs[dma]` is the cell that needs each (nothing: none).
std::vector<int> enabled(DmaPolicy& policy, const std::vector<std::optional<Cell>>& needs) {
  std::vector<int> out;
  policy.on_wait_phases([&](int dma) { return needs[static_cast<std::size_t>(dma)]; },
                        [&](int dma) { out.push_back(dma); });
  return out;
}

}  // namespace

TEST_CASE("Each DMA mode says whether phases run inside the start and whether they are chosen per step",
          "[dma_policy]") {
  CHECK(DmaPolicy(spec_of(model::DmaExecution::eager)).eager());
  CHECK_FALSE(DmaPolicy(spec_of(model::DmaExecution::eager)).rebuilds());
  CHECK_FALSE(DmaPolicy(spec_of(model::DmaExecution::async)).eager());
  CHECK_FALSE(DmaPolicy(spec_of(model::DmaExecution::async)).rebuilds());
  CHECK_FALSE(DmaPolicy(spec_of(model::DmaExecution::on_wait)).eager());
  CHECK(DmaPolicy(spec_of(model::DmaExecution::on_wait)).rebuilds());
}

TEST_CASE("The in-flight DMAs stay ascending as DMAs start and finish in any order", "[dma_policy]") {
  DmaPolicy policy(spec_of(model::DmaExecution::async));
  for (int dma : {0, 1, 2, 3}) policy.started(dma);
  policy.finished(2);
  policy.finished(0);
  CHECK(policy.in_flight() == std::vector<int>{1, 3});
}

TEST_CASE("on_wait enables every DMA a blocked cell needs, ascending", "[dma_policy]") {
  DmaPolicy policy(spec_of(model::DmaExecution::on_wait));
  for (int dma : {0, 1, 2, 3}) policy.started(dma);
  const Cell cell{0, 1};
  CHECK(enabled(policy, {cell, std::nullopt, cell, Cell{1, 0}}) == std::vector<int>{0, 2, 3});
}

TEST_CASE("Under the jax profile on_wait enables only the newest DMA each blocked cell needs", "[dma_policy]") {
  DmaPolicy policy(spec_of(model::DmaExecution::on_wait, model::CompatProfile::jax));
  for (int dma : {0, 1, 2, 3}) policy.started(dma);
  const Cell cell{0, 1};
  CHECK(enabled(policy, {cell, Cell{1, 0}, cell, std::nullopt}) == std::vector<int>{1, 2});
  CHECK(enabled(policy, {cell, Cell{1, 0}, cell, std::nullopt}) == std::vector<int>{1, 2});  // the same every step
}
