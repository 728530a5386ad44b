// The enabled actors as one unit (sim/engine/enabled_set.hpp): cores ascending, then DMA phases
// by DMA id, each kept in place as it changes.

#include <catch2/catch.hpp>

#include <vector>

#include "sim/engine/enabled_set.hpp"

using weft::scheduler::Actor;
using weft::sim::EnabledSet;

namespace {

std::vector<Actor> listed(const EnabledSet& set) { return {set.actors().begin(), set.actors().end()}; }
Actor core(std::uint32_t index) { return {Actor::Kind::core, index}; }
Actor read(std::uint32_t dma) { return {Actor::Kind::dma_read, dma}; }
Actor write(std::uint32_t dma) { return {Actor::Kind::dma_write, dma}; }

}  // namespace

TEST_CASE("Enabled cores stay ascending before the DMA phases, whatever order they change in", "[enabled_set]") {
  EnabledSet set(4);
  set.add_phase(0);
  set.set_core(3, true);
  set.set_core(1, true);
  set.set_core(1, true);  // no change
  set.set_core(2, true);
  set.set_core(3, false);
  CHECK(listed(set) == std::vector<Actor>{core(1), core(2), read(0)});
  CHECK(set.cores() == 2);
}

TEST_CASE("A DMA's read phase gives way to its write phase, and the DMA leaves once over", "[enabled_set]") {
  EnabledSet set(2);
  set.set_core(0, true);
  set.add_phase(4);
  set.add_phase(7);
  set.phase_ran(4, false);
  CHECK(listed(set) == std::vector<Actor>{core(0), write(4), read(7)});
  set.phase_ran(4, true);
  set.phase_ran(9, true);  // not listed: no change
  CHECK(listed(set) == std::vector<Actor>{core(0), read(7)});
}

TEST_CASE("Dropping the phases keeps the cores, and phases added back follow them", "[enabled_set]") {
  EnabledSet set(3);
  set.set_core(2, true);
  set.add_phase(1);
  set.drop_phases();
  CHECK(listed(set) == std::vector<Actor>{core(2)});
  set.add_phase(5, Actor::Kind::dma_write);
  CHECK(listed(set) == std::vector<Actor>{core(2), write(5)});
}
