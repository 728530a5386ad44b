// Schedule strings: the compact form every failure prints to reproduce it. Encoding must be
// exact (runs folded into ":N"), decoding must invert it, and malformed text must be rejected
// with the position of the offending token.

#include <catch2/catch.hpp>

#include <string>

#include "scheduler/rng.hpp"
#include "scheduler/schedule.hpp"

namespace {

using namespace weft::scheduler;

Actor c(std::uint32_t i) { return {Actor::Kind::core, i}; }
Actor r(std::uint32_t i) { return {Actor::Kind::dma_read, i}; }
Actor w(std::uint32_t i) { return {Actor::Kind::dma_write, i}; }

std::string as_text(const Schedule& schedule) {
  std::string text;
  for (const Actor& actor : schedule) text += (text.empty() ? "" : " ") + to_string(actor);
  return text;
}

// The position a malformed string is rejected at, or -1 if it parses.
long error_position(std::string_view text) {
  try {
    decode(text);
  } catch (const ScheduleError& error) {
    return static_cast<long>(error.position);
  }
  return -1;
}

}  // namespace

TEST_CASE("Actors print as c, r or w followed by their index", "[scheduler]") {
  CHECK(to_string(c(3)) == "c3");
  CHECK(to_string(r(12)) == "r12");
  CHECK(to_string(w(0)) == "w0");
  CHECK(to_string(core_actor(4294967295u)) == "c4294967295");
}

TEST_CASE("Encoding folds runs of one actor into a repeat count", "[scheduler]") {
  CHECK(encode({c(0), c(0), c(0), c(1), r(2), w(2)}) == "c0:3,c1,r2,w2");
  CHECK(encode({}) == "");
  CHECK(encode({c(5)}) == "c5");
  CHECK(encode({c(1), c(1)}) == "c1:2");
  // Runs are of the same actor, not the same index or kind.
  CHECK(encode({r(1), w(1), c(1)}) == "r1,w1,c1");
  CHECK(encode({c(0), c(1), c(0), c(0)}) == "c0,c1,c0:2");
  CHECK(encode(Schedule(12, w(7))) == "w7:12");
}

TEST_CASE("Decoding expands repeat counts", "[scheduler]") {
  CHECK(decode("c0:3,c1,r2,w2") == Schedule{c(0), c(0), c(0), c(1), r(2), w(2)});
  CHECK(decode("") == Schedule{});
  CHECK(decode("w10") == Schedule{w(10)});
  CHECK(decode("c0:1") == Schedule{c(0)});
  // Repeats of one actor in separate tokens are fine and add up.
  CHECK(decode("c2:2,c2") == Schedule(3, c(2)));
  CHECK(decode("c4294967295") == Schedule{c(4294967295u)});
  CHECK(decode("r007") == Schedule{r(7)});
}

TEST_CASE("Encoding then decoding random schedules gives them back", "[scheduler]") {
  const std::uint64_t seed = GENERATE(1, 2, 3, 17, 99);
  CAPTURE(seed);
  Rng random(seed);
  for (int round = 0; round < 200; ++round) {
    Schedule schedule;
    const auto length = random.below(40);
    for (std::uint64_t i = 0; i < length; ++i) {
      // Few distinct actors, so runs are frequent; sometimes a run is long.
      const Actor actor{static_cast<Actor::Kind>(random.below(3)), static_cast<std::uint32_t>(random.below(3))};
      schedule.insert(schedule.end(), random.below(4) == 0 ? 1 + random.below(30) : 1, actor);
    }
    const std::string text = encode(schedule);
    CAPTURE(round, text);
    const Schedule back = decode(text);
    REQUIRE(as_text(back) == as_text(schedule));
    REQUIRE(back == schedule);
    // The encoding is canonical: re-encoding gives the same text.
    REQUIRE(encode(back) == text);
  }
}

TEST_CASE("An empty step is rejected at its position", "[scheduler]") {
  CHECK(error_position(",c0") == 0);
  CHECK(error_position("c0,,c1") == 3);
  CHECK(error_position("c0:2,,") == 5);
  CHECK_THROWS_WITH(decode("c0,,c1"), Catch::Contains("empty step") && Catch::Contains("character 4"));
}

TEST_CASE("A step that does not start with c, r or w is rejected at its position", "[scheduler]") {
  CHECK(error_position("x0") == 0);
  CHECK(error_position("c0,d1") == 3);
  CHECK(error_position("c0, c1") == 3);
  CHECK(error_position("C0") == 0);
  CHECK(error_position(":3") == 0);
  CHECK_THROWS_WITH(decode("c1,q2"),
                    Catch::Contains("'q2'") && Catch::Contains("character 4") && Catch::Contains("c, r or w"));
}

TEST_CASE("A trailing comma is rejected at the comma", "[scheduler]") {
  CHECK(error_position("c0,") == 2);
  CHECK(error_position("c0:3,c11,") == 8);
  CHECK_THROWS_WITH(decode("c0,"), Catch::Contains("trailing comma"));
}

TEST_CASE("A missing or non-numeric index is rejected at the index", "[scheduler]") {
  CHECK(error_position("c") == 1);
  CHECK(error_position("c0,r") == 4);
  CHECK(error_position("cx") == 1);
  CHECK(error_position("c0,w1a") == 4);
  CHECK(error_position("c-1") == 1);
  CHECK(error_position("c+1") == 1);
  CHECK(error_position("c:2") == 1);
  CHECK(error_position("c1 ") == 1);
  CHECK_THROWS_WITH(decode("c0,w1a"),
                    Catch::Contains("actor index") && Catch::Contains("'1a'") && Catch::Contains("character 5"));
}

TEST_CASE("A bad repeat count is rejected at the count", "[scheduler]") {
  CHECK(error_position("c0:") == 3);
  CHECK(error_position("c0:x") == 3);
  CHECK(error_position("c0:-2") == 3);
  CHECK(error_position("c1,c12:2:3") == 7);
  CHECK(error_position("c0:0") == 3);
  CHECK(error_position("c1,r0:0") == 6);
  CHECK_THROWS_WITH(decode("c0:0"), Catch::Contains("repeat count") && Catch::Contains("character 4"));
  CHECK_THROWS_WITH(decode("c0:x"), Catch::Contains("repeat count") && Catch::Contains("'x'"));
}

TEST_CASE("Numbers too large are rejected rather than wrapped", "[scheduler]") {
  CHECK(error_position("c4294967296") == 1);                     // one past the largest index
  CHECK(error_position("c0,r99999999999999999999999999") == 4);  // past 64 bits
  CHECK(error_position("c0:4294967296") == 3);
  CHECK(error_position("c0:99999999999999999999999999") == 3);
  CHECK(error_position("c0:100000001") == 3);  // more repeats than any execution allows
  CHECK(decode("c0:1000").size() == 1000);
}

TEST_CASE("ScheduleError is a runtime_error", "[scheduler]") {
  CHECK_THROWS_AS(decode("c0,"), ScheduleError);
  CHECK_THROWS_AS(decode("z"), std::runtime_error);
}
