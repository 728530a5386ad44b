// One description of a blocked core (sim/engine/blocked_cores.hpp): the failure sites and the
// deadlock text come from the same facts, a condition per cell it may be released by.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/machine.hpp"
#include "sim/engine/blocked_cores.hpp"
#include "tests/sim/small_machine.hpp"

using namespace weft;
using sim::StandingCore;

namespace {

struct Fixture {
  model::Machine machine{sim::test::row_of(1, 2)};
  int semaphore(model::CoreId by) { return sim::test::regular_semaphore(machine, by); }
};

}  // namespace

TEST_CASE("A core blocked on one cell: its site holds the cell's facts, the text names the cell", "[blocked_cores]") {
  Fixture f;
  const int sem = f.semaphore({0, 1});
  const std::vector<StandingCore> cores{
      {{{0, 1}, 1, {"k.cpp", 9}}, sim::ops::Waits(sim::ops::Condition{sem, 1, 2}), ""}};
  const auto sites = sim::failure_sites(cores, f.machine, 5);
  REQUIRE(sites.size() == 1);
  const std::string id = std::to_string(f.machine.semaphores().id(sem));
  const std::string named = f.machine.semaphores().describe(sem);
  CHECK(named.find("semaphore " + id) != std::string::npos);
  CHECK(sites[0].what == "waits on " + named + ": needs 2, holds 0");
  REQUIRE(sites[0].waits.size() == 1);
  CHECK(sites[0].waits[0].needs == 2);
  CHECK(sites[0].step == 5);
  const std::string text = sim::describe_blocked(cores, {}, f.machine);
  CHECK(text.find("at k.cpp:9: waits on " + named + ", cell of device 0 core 1") != std::string::npos);
  CHECK(text.find(", needs 2, holds 0") != std::string::npos);
}

TEST_CASE("A core blocked on either of two conditions lists both, the barrier in words only", "[blocked_cores]") {
  Fixture f;
  const int sem = f.semaphore({0, 0});
  const sim::ops::Waits waits(sim::ops::Condition{sem, 0, 1}, sim::ops::Condition{-1, 0, 2, true});
  const std::vector<StandingCore> cores{{{{0, 0}, 0, {"k.cpp", 4}}, waits, ""}, {{{0, 1}, 1, {"k.cpp", 6}}, {}, ""}};
  const auto sites = sim::failure_sites(cores, f.machine, 0);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].what == "waits on " + f.machine.semaphores().describe(sem) +
                             ": needs 1, holds 0, or waits at the device barrier: needs 2, holds 0");
  CHECK(sites[0].waits.size() == 1);  // the wait-for graph follows semaphore cells
  CHECK(sites[1].what == "stopped here");
  CHECK(sites[1].waits.empty());
  const std::string text = sim::describe_blocked(cores, {}, f.machine);
  CHECK(text.find("; or waits at the device barrier until all 2 cores of device 0 arrive; 0 have") !=
        std::string::npos);
}
