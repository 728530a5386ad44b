// The spin reduction's state as one unit (sim/engine/spin_reduction.hpp): the windows, the
// pollers it blocks, and the cores a step releases; the end-to-end rule is spin_reduction_test.cpp's.

#include <catch2/catch.hpp>

#include <vector>

#include "model/machine.hpp"
#include "sim/engine/spin_reduction.hpp"
#include "tests/sim/small_machine.hpp"

using namespace weft;
using sim::PollTarget;
using sim::SpinReduction;

namespace {

struct Fixture {
  model::Machine machine{sim::test::row_of(2, 1)};
  int semaphore = sim::test::regular_semaphore(machine, {0, 0});
  PollTarget target{nullptr, semaphore, 0, {}, {"k.cpp", 3}};
};

}  // namespace

TEST_CASE("A core that read an unchanged count twice spins until the count changes", "[spin_reduction]") {
  Fixture f;
  SpinReduction spin(2);
  spin.note_read(0, f.target, f.machine);
  CHECK_FALSE(spin.spinning(0, f.target, f.machine));  // the first read keeps no value
  spin.note_read(0, f.target, f.machine);
  REQUIRE(spin.may_spin(0));
  CHECK(spin.spinning(0, f.target, f.machine));
  CHECK_FALSE(spin.spinning(0, std::nullopt, f.machine));  // standing at no read
  model::Failure failure;
  REQUIRE(f.machine.add({1, 0}, f.semaphore, {0, 0}, 1, failure));
  CHECK_FALSE(spin.spinning(0, f.target, f.machine));
}

TEST_CASE("An effect empties the window, and when off nothing is noted", "[spin_reduction]") {
  Fixture f;
  SpinReduction spin(1);
  spin.note_read(0, f.target, f.machine);
  spin.note_read(0, f.target, f.machine);
  spin.note_effect(0);
  CHECK_FALSE(spin.may_spin(0));
  spin.set_on(false);
  spin.note_read(0, f.target, f.machine);
  spin.note_read(0, f.target, f.machine);
  CHECK_FALSE(spin.may_spin(0));
}

TEST_CASE("A poller unblocked by a step is released until its own next step", "[spin_reduction]") {
  SpinReduction spin(3);
  spin.set_polling(2, true, false);
  spin.set_polling(0, true, false);
  CHECK(spin.polling() == std::vector<int>{2, 0});
  spin.start_step();
  spin.set_polling(2, false, false);
  CHECK(spin.polling() == std::vector<int>{0});
  CHECK(spin.released(2));
  CHECK(spin.released_now() == std::vector<int>{2});
  spin.start_step();
  CHECK(spin.released_now().empty());
  CHECK(spin.released(2));  // until its own step starts
  spin.start_core_step(2);
  CHECK_FALSE(spin.released(2));
  spin.set_polling(0, false, true);  // it finished: listed as released by the step, but it stands nowhere
  CHECK_FALSE(spin.released(0));
  CHECK(spin.released_now() == std::vector<int>{0});
}
