// The explorer's parts on hand-made runs: happens-before (scheduler/strategies/happens_before.hpp),
// the wakeup tree's insertion (wakeup_tree.hpp) and the reversibility of races on blocking waits
// (reversibility.hpp). The whole explorer is checked against plain enumeration in
// tests/sim/explore_soundness_test.cpp.

#include <catch2/catch.hpp>

#include <vector>

#include "scheduler/strategies/happens_before.hpp"
#include "scheduler/strategies/reversibility.hpp"
#include "scheduler/strategies/wakeup_tree.hpp"

namespace {

using namespace weft::scheduler;

StableActor core(std::uint32_t id) { return {Actor::Kind::core, id, 0}; }
StableActor dma_read(std::uint32_t owner, std::uint32_t sequence) { return {Actor::Kind::dma_read, owner, sequence}; }

Footprint writes(std::int64_t object) { return {{{{1, object, 0, 0}, TouchMode::write}}}; }
Footprint reads(std::int64_t object) { return {{{{1, object, 0, 0}, TouchMode::read}}}; }
Footprint adds(std::int64_t cell, std::int64_t amount) { return {{{{2, cell, 0, 0}, TouchMode::add, {}, amount}}}; }
Footprint takes(std::int64_t cell, std::int64_t amount) { return {{{{2, cell, 0, 0}, TouchMode::take, {}, amount}}}; }
Footprint starts_dma() {
  Footprint footprint;
  footprint.creates = true;
  return footprint;
}

}  // namespace

TEST_CASE("Happens-before: program order, dependence in run order, and a DMA after its start",
          "[scheduler][explorer]") {
  // c0 writes x; c1 writes y; c1 reads x; c0 starts a DMA; the DMA reads y.
  const std::vector<Event> run{{core(0), writes(1)},
                               {core(1), writes(2)},
                               {core(1), reads(1)},
                               {core(0), starts_dma()},
                               {dma_read(0, 0), reads(2)}};
  const HappensBefore order(run);
  CHECK(order.chains() == 3);
  CHECK(order.before(0, 2));        // c0's write of x, then c1's read of x: dependent
  CHECK(order.before(1, 2));        // c1's program order
  CHECK_FALSE(order.before(1, 3));  // c1's write of y and c0's start: independent
  CHECK(order.before(0, 3));        // c0's program order
  CHECK(order.before(3, 4));        // the DMA runs after its start
  CHECK(order.before(1, 4));        // the DMA reads y after c1 wrote it
  CHECK_FALSE(order.before(2, 3));
  CHECK(std::vector<std::size_t>(order.races(2).begin(), order.races(2).end()) == std::vector<std::size_t>{0});
  CHECK(std::vector<std::size_t>(order.races(4).begin(), order.races(4).end()) == std::vector<std::size_t>{1});
  CHECK(order.races(3).empty());
}

TEST_CASE("Happens-before: transitions left enabled at a run's end are not ordered among themselves",
          "[scheduler][explorer]") {
  // c0 starts a DMA and writes x, its last step; left enabled: c1's write of x, then the DMA's
  // read of x. Both follow c0's write; c1's write does not come between it and the DMA's read.
  const std::vector<Event> run{
      {core(0), starts_dma()}, {core(0), writes(1)}, {core(1), writes(1)}, {dma_read(0, 0), reads(1)}};
  const HappensBefore in_sequence(run);
  CHECK(in_sequence.before(2, 3));
  CHECK(in_sequence.races(3).size() == 1);  // only c1's write: c0's is behind it
  const HappensBefore left(run, 2);
  CHECK(left.before(1, 2));
  CHECK(left.before(1, 3));
  CHECK_FALSE(left.before(2, 3));
  CHECK(std::vector<std::size_t>(left.races(3).begin(), left.races(3).end()) == std::vector<std::size_t>{1});
}

TEST_CASE("Weak initials: an initial of the sequence, or an actor independent of all of it", "[scheduler][explorer]") {
  // c0 writes x, c1 writes y, c1 reads x: v for the race (c0 write x, c1 read x) is [c1 w y, c1 r x].
  const std::vector<Event> run{{core(0), writes(1)}, {core(1), writes(2)}, {core(1), reads(1)}};
  const HappensBefore order(run);
  const Sequence v({{run[1].actor, &run[1].footprint, 1}, {run[2].actor, &run[2].footprint, 2}}, order);
  CHECK(v.weak_initial(core(1), writes(2)) == std::optional<std::size_t>(0));
  CHECK(v.weak_initial(core(2), writes(3)) == std::optional<std::size_t>(2));  // independent of all: not in v
  CHECK_FALSE(v.weak_initial(core(2), reads(2)));                              // reads what v's first step writes
  CHECK_FALSE(v.weak_initial(core(0), writes(1)));                             // conflicts with v's read of x
}

TEST_CASE("Inserting into a wakeup tree: covered by the run, added as a branch, refused by a bound",
          "[scheduler][explorer]") {
  // The run: c0 writes x, then c1 reads x. Reversing the race gives v = [c1 reads x].
  const std::vector<Event> run{{core(0), writes(1)}, {core(1), reads(1)}};
  const HappensBefore order(run);
  const auto fresh_tree = [&] { return std::vector<Branch>{{run[0].actor, {}, {}}}; };
  const auto anywhere = [](std::size_t, StableActor) { return true; };

  SECTION("a new branch c1 at the first state") {
    std::vector<Branch> tree = fresh_tree(), second = {{run[1].actor, {}, {}}};
    const std::vector<TreeLevel> levels{{&tree, &run[0].footprint}, {&second, &run[1].footprint}};
    Sequence v({{run[1].actor, &run[1].footprint, 1}}, order);
    CHECK(insert(levels, v, anywhere) == Inserted::added);
    REQUIRE(tree.size() == 2);
    CHECK(tree[1].actor == core(1));
    CHECK(tree[1].children.empty());
  }
  SECTION("inserting the same sequence twice adds it once") {
    std::vector<Branch> tree = fresh_tree(), second = {{run[1].actor, {}, {}}};
    const std::vector<TreeLevel> levels{{&tree, &run[0].footprint}, {&second, &run[1].footprint}};
    Sequence first({{run[1].actor, &run[1].footprint, 1}}, order);
    Sequence again({{run[1].actor, &run[1].footprint, 1}}, order);
    CHECK(insert(levels, first, anywhere) == Inserted::added);
    CHECK(insert(levels, again, anywhere) == Inserted::covered);
    CHECK(tree.size() == 2);
  }
  SECTION("an independent sequence is covered by the current run") {
    const Footprint elsewhere = writes(9);
    std::vector<Branch> tree = fresh_tree(), second = {{run[1].actor, {}, {}}};
    const std::vector<TreeLevel> levels{{&tree, &run[0].footprint}, {&second, &run[1].footprint}};
    Sequence v({{core(2), &elsewhere, 1}}, order);
    CHECK(insert(levels, v, anywhere) == Inserted::covered);
    CHECK(tree.size() == 1);
  }
  SECTION("a bound that forbids the branch refuses it") {
    std::vector<Branch> tree = fresh_tree(), second = {{run[1].actor, {}, {}}};
    const std::vector<TreeLevel> levels{{&tree, &run[0].footprint}, {&second, &run[1].footprint}};
    Sequence v({{run[1].actor, &run[1].footprint, 1}}, order);
    CHECK(insert(levels, v, [](std::size_t, StableActor) { return false; }) == Inserted::refused);
    CHECK(tree.size() == 1);
  }
}

TEST_CASE("A race on a wait is reversible only if the cell holds enough without the signal", "[scheduler][explorer]") {
  // c0 signals the cell by 1, c1 waits for 1: the wait cannot run first.
  const std::vector<Event> lone{{core(0), adds(5, 1)}, {core(1), takes(5, 1)}};
  const HappensBefore lone_order(lone);
  CHECK_FALSE(Reversibility(lone, lone.size(), lone_order).reversible(0, 1));
  // An earlier signal by c2 leaves enough: now the wait may run before c0's signal.
  const std::vector<Event> spare{{core(2), adds(5, 1)}, {core(0), adds(5, 1)}, {core(1), takes(5, 1)}};
  const HappensBefore spare_order(spare);
  CHECK(Reversibility(spare, spare.size(), spare_order).reversible(1, 2));
  // A signal by c2 between the race's two, independent of c0's: it comes before the wait in the
  // reversal too. One that c0's signal is ordered before (c0's own) does not.
  const std::vector<Event> between{{core(0), adds(5, 1)}, {core(2), adds(5, 1)}, {core(1), takes(5, 1)}};
  const HappensBefore between_order(between);
  CHECK(Reversibility(between, between.size(), between_order).reversible(0, 2));
  const std::vector<Event> own{{core(0), adds(5, 1)}, {core(0), adds(5, 1)}, {core(1), takes(5, 2)}};
  const HappensBefore own_order(own);
  CHECK_FALSE(Reversibility(own, own.size(), own_order).reversible(1, 2));
  CHECK_FALSE(Reversibility(own, own.size(), own_order).reversible(0, 2));
}

TEST_CASE("Happens-before: a DMA waited for gives its lane to the next DMA of its core", "[scheduler][explorer]") {
  // c0 starts DMA 0, which reads x and signals the cell; c0 waits on the cell and starts DMA 1,
  // which reads x. c1 writes y, unrelated. Three chains: the two cores and one lane.
  const Footprint signal_cell{{{{2, 5, 0, 0}, TouchMode::add, {}, 1}}};
  const std::vector<Event> run{{core(0), starts_dma()},   {dma_read(0, 0), reads(1)},
                               {core(1), writes(2)},      {{Actor::Kind::dma_write, 0, 0}, signal_cell},
                               {core(0), takes(5, 1)},    {core(0), starts_dma()},
                               {dma_read(0, 1), reads(1)}};
  const HappensBefore order(run);
  CHECK(order.chains() == 3);
  CHECK(order.before(1, 6));  // DMA 0 before DMA 1, through the wait and the start
  CHECK(order.before(3, 4));
  CHECK_FALSE(order.before(2, 6));
  CHECK_FALSE(order.before(1, 2));
}

TEST_CASE("A chain of branches as long as a long run is copied, compared and freed without recursion",
          "[scheduler][explorer]") {
  // 300,000 levels: nested destructors, copies or comparisons would overflow the stack.
  Branch root(core(0), writes(0));
  Branch* tail = &root;
  for (std::uint32_t depth = 1; depth < 300'000; ++depth) {
    tail->children.emplace_back(core(depth % 3), writes(depth));
    if (depth % 1000 == 0) tail->children.emplace_back(dma_read(depth, 1), reads(depth));
    tail = &tail->children.front();
  }
  Branch copy = root;
  CHECK(copy == root);
  tail->children.emplace_back(core(7), reads(7));
  CHECK_FALSE(copy == root);
  Branch moved = std::move(copy);
  moved = root;
  CHECK(moved == root);
  std::size_t branches = 0;
  visit_branches(root, [&](const Branch&) { ++branches; });
  CHECK(branches == 300'000 + 299 + 1);
}
