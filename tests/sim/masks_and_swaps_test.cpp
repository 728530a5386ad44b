// Masked loads and stores, and swaps, through the kernel API: values, bounds, race verdicts,
// and the explorer's independence (only the kept elements are in a footprint).

#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using namespace weft;
using sim::test::explore;
using sim::test::machine_of;
using sim::test::run;

namespace {

// Columns below `n` of an r x c tile (the mask of a ragged last block).
sim::Mask columns_below(Eigen::Index rows, Eigen::Index cols, Eigen::Index n) {
  sim::Mask mask(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) mask(r, c) = c < n;
  return mask;
}

// Two cores store into one [2, 8] buffer under masks: core 0 the columns below 4, core 1 the
// columns from `from` on. Disjoint (from = 4) they share nothing; overlapping they race.
sim::ScenarioDefinition halves(Eigen::Index from) {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) { host.hbm<float>("out", {2, 8}); };
  s.kernel = [from](sim::Core& core) {
    auto out = core.hbm<float>("out");
    const sim::Mask left = columns_below(2, 8, 4);
    const sim::Mask mine = core.core_id() == 0 ? left : sim::Mask(!columns_below(2, 8, from));
    core.store(out, sim::Tile<float>::Constant(2, 8, float(core.core_id() + 1)), mine);
  };
  s.check = [](const sim::Host& host) -> std::string {
    const auto out = host.data<float>("out", 0);
    for (int k = 0; k < 16; ++k)
      if (out[k] != (k % 8 < 4 ? 1.0f : 2.0f)) return "element " + std::to_string(k);
    return "";
  };
  return s;
}

}  // namespace

TEST_CASE("A masked load gives `other` where the mask is false and the buffer where it is true", "[sim][mask]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) {
    host.hbm<std::int32_t>("x", {2, 3});
    for (int k = 0; k < 6; ++k) host.data<std::int32_t>("x", 0)[k] = k + 1;
  };
  s.kernel = [](sim::Core& core) {
    sim::Mask keep(2, 3);
    keep << true, false, true, false, true, false;
    const sim::Tile<std::int32_t> got = core.load(core.hbm<std::int32_t>("x"), keep, -7);
    sim::Tile<std::int32_t> want(2, 3);
    want << 1, -7, 3, -7, 5, -7;
    core.check((got == want).all(), "masked load values");
  };
  const auto result = run(s, machine_of(1, 1, true));
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
}

TEST_CASE("A ragged last block: masked-off elements past the end are never out of bounds", "[sim][mask]") {
  // x has 10 elements; the kernel works in blocks of 4, and its last block (8..11) reaches past
  // the end. Masked to the elements that exist, it loads and stores them and nothing else.
  const auto ragged = [](bool mask_the_tail) {
    sim::ScenarioDefinition s;
    s.setup = [](sim::Host& host) {
      host.hbm<float>("x", {10});
      host.hbm<float>("y", {10});
      for (int k = 0; k < 10; ++k) host.data<float>("x", 0)[k] = float(k);
    };
    s.kernel = [mask_the_tail](sim::Core& core) {
      auto x = core.hbm<float>("x");
      auto y = core.hbm<float>("y");
      for (int block = 0; block < 3; ++block) {
        const sim::Mask keep = columns_below(1, 4, mask_the_tail ? 10 - 4 * block : 4);
        const auto tile = core.load(x.at({sim::ds(4 * block, 4)}), keep, 0.0f);
        core.store(y.at({sim::ds(4 * block, 4)}), tile * 2, keep);
      }
    };
    s.check = [](const sim::Host& host) -> std::string {
      for (int k = 0; k < 10; ++k)
        if (host.data<float>("y", 0)[k] != 2.0f * float(k)) return "y[" + std::to_string(k) + "]";
      return "";
    };
    return s;
  };
  const auto masked = run(ragged(true), machine_of(1, 1, true));
  INFO(masked.details);
  CHECK(masked.verdict == model::Verdict::ok);
  const auto unmasked = run(ragged(false), machine_of(1, 1, true));
  CHECK(unmasked.verdict == model::Verdict::out_of_bounds);
  CHECK(unmasked.details.find("loads [8:12] of hbm buffer 1 'x' f32[10]") != std::string::npos);  // a mask keeping all
}

TEST_CASE("Two cores storing disjoint masks of one buffer share nothing: no race, one execution",
          "[sim][mask][explore]") {
  const auto disjoint = halves(4);
  for (std::uint64_t seed = 0; seed < 5; ++seed)
    CHECK(run(disjoint, machine_of(1, 2, true), seed).verdict == model::Verdict::ok);
  const auto report = explore(disjoint, machine_of(1, 2, false));
  CHECK(report.complete == 1);
  CHECK(report.exhausted);
}

TEST_CASE("Two cores storing overlapping masks race, and the explorer finds both orders", "[sim][mask][explore]") {
  const auto overlapping = halves(3);  // column 3 is in both masks
  const auto raced = run(overlapping, machine_of(1, 2, true));
  CHECK(raced.verdict == model::Verdict::data_race);
  CHECK(raced.details.find("store [0:2, 0:4]") != std::string::npos);
  CHECK(raced.details.find("store [0:2, 3:8]") != std::string::npos);
  const auto report = explore(overlapping, machine_of(1, 2, false));
  CHECK(report.complete == 2);
  CHECK(report.found(model::Verdict::wrong_result));  // core 0 last: column 3 holds 1
  CHECK(report.found(model::Verdict::ok));
}

TEST_CASE("A swap exchanges atomically: of two cores swapping into one flag, exactly one gets 0", "[sim][swap]") {
  // A test-and-set. Without race detection every interleaving has one winner; with it, the two
  // unsynchronised swaps of one element are a data race (a swap is a write).
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) {
    host.hbm<std::int32_t>("flag", {1});
    host.hbm<std::int32_t>("won", {2});
  };
  s.kernel = [](sim::Core& core) {
    const auto old = core.swap(core.hbm<std::int32_t>("flag"), sim::Tile<std::int32_t>::Constant(1, 1, 1));
    core.store(core.hbm<std::int32_t>("won").at({core.core_id()}),
               sim::Tile<std::int32_t>::Constant(1, 1, old(0, 0) == 0));
  };
  s.check = [](const sim::Host& host) -> std::string {
    const auto won = host.data<std::int32_t>("won", 0);
    return won[0] + won[1] == 1 ? "" : "winners: " + std::to_string(won[0] + won[1]);
  };
  const auto report = explore(s, machine_of(1, 2, false));
  CHECK(report.complete == 2);
  CHECK(report.exhausted);
  CHECK(report.verdicts.size() == 1);
  CHECK(report.found(model::Verdict::ok));
  CHECK(run(s, machine_of(1, 2, true)).verdict == model::Verdict::data_race);
}

TEST_CASE("A masked swap exchanges the kept elements and hands back the rest of the tile", "[sim][swap]") {
  sim::ScenarioDefinition s;
  s.setup = [](sim::Host& host) {
    host.hbm<Eigen::half>("x", {4});
    for (int k = 0; k < 4; ++k) host.data<Eigen::half>("x", 0)[k] = Eigen::half(float(k));
  };
  s.kernel = [](sim::Core& core) {
    sim::Mask keep(1, 4);
    keep << false, true, true, false;
    sim::Tile<Eigen::half> fresh(1, 4);
    fresh << Eigen::half(10.0f), Eigen::half(11.0f), Eigen::half(12.0f), Eigen::half(13.0f);
    const auto old = core.swap(core.hbm<Eigen::half>("x"), fresh, keep);
    core.check(old(0, 0) == Eigen::half(10.0f) && old(0, 1) == Eigen::half(1.0f) && old(0, 2) == Eigen::half(2.0f) &&
                   old(0, 3) == Eigen::half(13.0f),
               "old values where kept, the tile's elsewhere");
  };
  s.check = [](const sim::Host& host) -> std::string {
    const auto x = host.data<Eigen::half>("x", 0);
    const bool right = x[0] == Eigen::half(0.0f) && x[1] == Eigen::half(11.0f) && x[2] == Eigen::half(12.0f) &&
                       x[3] == Eigen::half(3.0f);
    return right ? "" : "x";
  };
  const auto result = run(s, machine_of(1, 1, true));
  INFO(result.details);
  CHECK(result.verdict == model::Verdict::ok);
}
