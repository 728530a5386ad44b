// The race detector's fast paths (model/race_detector.hpp, "Fast paths": same epoch, same
// rectangle) against the detector without them and against a plain oracle, on random programs
// of three cores: loads and stores of random rectangles of one buffer, signals and waits of one
// unit.
//
// Without keep_going the detector takes the fast paths; with keep_going it never does, and its
// first report is what the first racing access found first. So the two must stop at the same
// operation with the same report. The oracle keeps every access with its core's epoch and plain
// vector clocks (a wait takes the clock of the signal it consumes, in signal order; a signal
// ticks the signaller), and says which operation is the first to race.

#include <catch2/catch.hpp>

#include <array>
#include <deque>
#include <optional>
#include <vector>

#include "race_test_support.hpp"
#include "scheduler/rng.hpp"

using namespace weft::model;
using namespace weft::model::test;

namespace {

constexpr int cores = 3;
constexpr std::int64_t length = 8;

struct Operation {
  enum class Kind { load, store, signal, wait } kind;
  int core = 0;
  std::int64_t start = 0, size = 0;  // load, store
  int target = 0;                    // signal: whose cell
  int line = 0;
};

std::vector<Operation> random_program(weft::scheduler::Rng& rng, int operations) {
  std::vector<Operation> program;
  program.reserve(static_cast<std::size_t>(operations));  // last_access points into it
  const Operation* last_access = nullptr;
  std::array<int, cores> held{};  // units in each core's cell, to keep every wait satisfiable
  for (int k = 0; k < operations; ++k) {
    Operation op{};
    // Runs of one core's operations, and re-accesses inside the previous rectangle, so that
    // same-epoch accesses are frequent.
    op.core = k > 0 && rng.below(4) > 0 ? program.back().core : static_cast<int>(rng.below(cores));
    op.line = 100 + k;
    const auto pick = rng.below(10);
    const bool again = last_access != nullptr && rng.below(2) == 0;
    if (pick < 6 && again) {
      // Inside the latest access's rectangle, a third of the time exactly that rectangle.
      const Operation previous = *last_access;
      op.kind = pick < 4 ? Operation::Kind::load : Operation::Kind::store;
      op.start = previous.start;
      op.size = previous.size;
      if (rng.below(3) > 0) {
        op.start = previous.start + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(previous.size)));
        op.size = 1 + static_cast<std::int64_t>(
                          rng.below(static_cast<std::uint64_t>(previous.start + previous.size - op.start)));
      }
    } else if (pick < 6) {
      op.kind = pick < 3 ? Operation::Kind::load : Operation::Kind::store;
      op.start = static_cast<std::int64_t>(rng.below(4)) * 2;
      op.size = 1 + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(length - op.start)));
    } else if (pick < 8) {
      op.kind = Operation::Kind::signal;
      op.target = static_cast<int>(rng.below(cores));
      ++held[static_cast<std::size_t>(op.target)];
    } else if (held[static_cast<std::size_t>(op.core)] > 0) {
      op.kind = Operation::Kind::wait;
      --held[static_cast<std::size_t>(op.core)];
    } else {
      op.kind = Operation::Kind::load;
      op.size = length;
    }
    program.push_back(op);
    if (op.size > 0) last_access = &program.back();
  }
  return program;
}

CoreId core_id(int core) { return CoreId{0, core}; }

// Runs the program until an access is refused or reported; returns that operation's index.
std::optional<std::size_t> run_detector(RaceMachine& m, const std::vector<Operation>& program, bool keep_going) {
  Buffer* x = m.host("x", Shape{length});
  const int sem = semaphore(m.machine, a);
  for (std::size_t k = 0; k < program.size(); ++k) {
    const Operation& op = program[k];
    const CoreId by = core_id(op.core);
    bool allowed = true;
    switch (op.kind) {
      case Operation::Kind::load:
        allowed = m.load(by, x, rect1(op.start, op.size), op.line);
        break;
      case Operation::Kind::store:
        allowed = m.store(by, x, rect1(op.start, op.size), op.line);
        break;
      case Operation::Kind::signal:
        m.signal(by, sem, core_id(op.target), 1);
        break;
      case Operation::Kind::wait:
        m.wait(by, sem, 1);
        break;
    }
    if (!allowed || (keep_going && !m.reports().empty())) return k;
  }
  return std::nullopt;
}

// The plain oracle: every access kept, vector clocks as arrays. Counts the accesses the fast
// paths are for, after an access of the same core: inside it at its epoch (`same_epoch`), and
// its rectangle again at a later epoch (`same_rectangle`).
std::optional<std::size_t> first_race(const std::vector<Operation>& program, int& same_epoch, int& same_rectangle) {
  using Clock = std::array<std::uint32_t, cores>;
  struct Access {
    int core;
    std::uint32_t epoch;
    std::int64_t start, size;
    bool write;
  };
  std::array<Clock, cores> clock{};
  for (int c = 0; c < cores; ++c) clock[static_cast<std::size_t>(c)][static_cast<std::size_t>(c)] = 1;
  std::array<std::deque<Clock>, cores> cell;
  std::vector<Access> accesses;
  for (std::size_t k = 0; k < program.size(); ++k) {
    const Operation& op = program[k];
    Clock& mine = clock[static_cast<std::size_t>(op.core)];
    if (op.kind == Operation::Kind::signal) {
      cell[static_cast<std::size_t>(op.target)].push_back(mine);
      ++mine[static_cast<std::size_t>(op.core)];
    } else if (op.kind == Operation::Kind::wait) {
      const Clock released = cell[static_cast<std::size_t>(op.core)].front();
      cell[static_cast<std::size_t>(op.core)].pop_front();
      for (std::size_t c = 0; c < cores; ++c) mine[c] = std::max(mine[c], released[c]);
    } else {
      const bool write = op.kind == Operation::Kind::store;
      if (!accesses.empty()) {
        const Access& last = accesses.back();
        const bool same_core = last.core == op.core;
        if (same_core && last.epoch == mine[static_cast<std::size_t>(op.core)] && last.start <= op.start &&
            op.start + op.size <= last.start + last.size && (last.write || !write))
          ++same_epoch;
        if (same_core && last.epoch < mine[static_cast<std::size_t>(op.core)] && last.start == op.start &&
            last.size == op.size && (write || !last.write))
          ++same_rectangle;
      }
      for (const Access& earlier : accesses) {
        const bool overlap = earlier.start < op.start + op.size && op.start < earlier.start + earlier.size;
        const bool known = earlier.epoch <= mine[static_cast<std::size_t>(earlier.core)];
        if (overlap && !known && (write || earlier.write)) return k;
      }
      accesses.push_back({op.core, mine[static_cast<std::size_t>(op.core)], op.start, op.size, write});
    }
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("A core re-reading what it stored at the same epoch, then another core's store, races with the store",
          "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{length});
  m.machine.set_step(1);
  REQUIRE(m.store(a, x, rect1(0, 8), 10));
  m.machine.set_step(2);
  REQUIRE(m.load(a, x, rect1(2, 4), 11));  // same epoch, inside the store: adds nothing
  m.machine.set_step(3);
  CHECK_FALSE(m.store(b, x, rect1(3, 1), 20));
  INFO(m.failure.message);
  CHECK(m.failure.verdict == Verdict::data_race);
  CHECK_THAT(m.failure.message, Catch::Contains("store [0:8] by device 0 core 0 at race.cpp:10, step 1"));
}

TEST_CASE("A re-read at the same epoch is checked when the first read left another core's read beside it",
          "[model][race]") {
  // a's second load, after a wait that taught it b's load, retires b's load: a later race then
  // names a's first load, not b's. Skipping the second load would have kept b's load in front.
  RaceMachine m(spec_of(1, 3));
  Buffer* x = m.host("x", Shape{length});
  const int sem = semaphore(m.machine, a);
  REQUIRE(m.load(b, x, rect1(0, 2), 20));
  REQUIRE(m.load(a, x, rect1(0, 8), 10));
  m.signal(b, sem, a, 1);
  m.wait(a, sem, 1);
  REQUIRE(m.load(a, x, rect1(0, 4), 11));
  CHECK_FALSE(m.store(c, x, rect1(0, 1), 30));
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message, Catch::Contains("load [0:8] by device 0 core 0 at race.cpp:10"));
}

TEST_CASE("The same tile stored again after a signal replaces its record, and a race still names the new store",
          "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{length});
  const int sem = semaphore(m.machine, a);
  m.machine.set_step(1);
  REQUIRE(m.store(a, x, rect1(0, 4), 10));
  m.signal(a, sem, b, 1);  // a's epoch moves on
  m.machine.set_step(2);
  REQUIRE(m.store(a, x, rect1(0, 4), 11));  // the same rectangle: the record becomes this store
  m.wait(b, sem, 1);                        // b knows the first store, not the second
  m.machine.set_step(3);
  CHECK_FALSE(m.load(b, x, rect1(1, 1), 20));
  INFO(m.failure.message);
  CHECK_THAT(m.failure.message, Catch::Contains("store [0:4] by device 0 core 0 at race.cpp:11, step 2"));
}

TEST_CASE("A store after a load at the same epoch is checked, not skipped", "[model][race]") {
  RaceMachine m(spec_of(1, 2));
  Buffer* x = m.host("x", Shape{length});
  REQUIRE(m.load(b, x, rect1(0, 4), 20));
  REQUIRE(m.load(a, x, rect1(0, 8), 10));
  CHECK_FALSE(m.store(a, x, rect1(0, 2), 11));  // the latest record is a's load: a store is no weaker
  CHECK_THAT(m.failure.message, Catch::Contains("race.cpp:20"));
}

TEST_CASE("The fast paths stop at the same access with the same report as the detector without them",
          "[model][race][property]") {
  weft::scheduler::Rng rng(20261201);
  int races = 0, same_epoch = 0, same_rectangle = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::vector<Operation> program = random_program(rng, 2 + static_cast<int>(rng.below(20)));
    RaceMachine fast(spec_of(1, cores));
    RaceMachine plain(spec_of(1, cores), SemaphoreClocks::precise, /*keep_going=*/true);
    const std::optional<std::size_t> stopped = run_detector(fast, program, false);
    const std::optional<std::size_t> reported = run_detector(plain, program, true);
    INFO("trial " << trial);
    REQUIRE(stopped == reported);
    REQUIRE(stopped == first_race(program, same_epoch, same_rectangle));
    if (stopped) {
      ++races;
      REQUIRE(fast.failure.message == plain.reports().front());
    }
  }
  // Both outcomes are exercised, and the accesses the fast paths are for.
  CHECK(races > 300);
  CHECK(races < 2700);
  CHECK(same_epoch > 1000);
  CHECK(same_rectangle > 100);
}
