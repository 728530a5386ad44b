// The race detector's packed access records (model/access_record.hpp) and their line table
// (model/line_table.hpp): a record gives back exactly what it was filed with, at every rank, for
// a rectangle that fits 32-bit numbers and for one that does not (kept in its history's table
// of wide rectangles).

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "model/access_history.hpp"
#include "model/line_table.hpp"

namespace {

using namespace weft::model;

Rect rect_of_rank(int rank, std::int64_t first_start, std::int64_t first_size) {
  Rect rect;
  rect.rank = rank;
  for (int d = 0; d < rank; ++d) {
    rect.start[d] = d == 0 ? first_start : d;
    rect.size[d] = d == 0 ? first_size : 2 * d + 1;
  }
  return rect;
}

// Every field, the unused entries too.
void check_same(const Rect& got, const Rect& want) {
  CHECK(got.rank == want.rank);
  CHECK(got.start == want.start);
  CHECK(got.size == want.size);
}

struct Filed {
  Epoch epoch;
  bool is_write;
  Accessor who;
  std::uint32_t line;
  std::uint64_t step;
};

// Files `rect` stamped with `filed` in a history of `shape`, then sweeps the whole buffer and
// checks that the one record it finds says exactly that.
void check_round_trip(const Shape& shape, const Rect& rect, const Filed& filed) {
  AccessHistory history(shape);
  history.add(
      rect, [&](AccessRecord& record) { record.stamp(filed.epoch, filed.is_write, filed.who, filed.line, filed.step); },
      true);
  int visits = 0;
  history.sweep(Rect::whole(shape), [&](const AccessRecord& record, const Rect& found) {
    ++visits;
    check_same(found, rect);
    check_same(history.rect_of(record), rect);
    CHECK(record.epoch() == filed.epoch);
    CHECK(record.is_write() == filed.is_write);
    CHECK(record.who() == filed.who);
    CHECK(record.line() == filed.line);
    CHECK(record.step() == filed.step);
    return false;
  });
  CHECK(visits == 1);
}

}  // namespace

TEST_CASE("An access record is at most 64 bytes", "[model][races]") { CHECK(sizeof(AccessRecord) <= 64); }

TEST_CASE("An access record gives back its rectangle and stamp at every rank", "[model][races]") {
  const Shape shape{64, 64, 64, 64};
  const std::uint64_t big_step = (std::uint64_t{1} << 40) + 3;  // steps keep 64 bits
  for (int rank = 0; rank <= max_rank; ++rank) {
    CAPTURE(rank);
    Shape ranked = shape;
    ranked.rank = rank;
    const Rect rect = rect_of_rank(rank, 5, 7);
    CHECK(AccessRecord::fits(rect));
    check_round_trip(ranked, rect, {{3, 9}, true, {Accessor::Kind::core, 17, false}, 4, big_step});
    check_round_trip(ranked, rect, {{1u << 31, ~0u}, false, {Accessor::Kind::dma, 123456, true}, 0, 0});
    check_round_trip(ranked, rect, {{0, 1}, true, {Accessor::Kind::dma, 2, false}, ~0u, 1});
  }
}

TEST_CASE("A rectangle at the 32-bit limits stays narrow, one past them is kept wide and given back",
          "[model][races]") {
  const std::int64_t max32 = INT32_MAX, min32 = INT32_MIN;
  const Shape huge{std::int64_t{1} << 40};
  const Filed filed{{2, 5}, true, {Accessor::Kind::core, 1, false}, 3, 99};

  const Rect at_limits = rect_of_rank(1, max32, min32);
  CHECK(AccessRecord::fits(at_limits));
  CHECK_FALSE(AccessRecord::narrow(at_limits).is_wide());
  check_round_trip(huge, at_limits, filed);

  for (const auto& [start, size] :
       {std::pair{max32 + 1, std::int64_t{4}}, std::pair{std::int64_t{0}, max32 + 1},
        std::pair{min32 - 1, std::int64_t{1}}, std::pair{std::int64_t{1} << 39, max32 * 4}}) {
    CAPTURE(start, size);
    const Rect wide = rect_of_rank(1, start, size);
    CHECK_FALSE(AccessRecord::fits(wide));
    check_round_trip(huge, wide, filed);
  }
  Rect unused_entry = rect_of_rank(2, 0, 1);  // an entry past the rank that does not fit: wide too
  unused_entry.size[3] = max32 + 1;
  CHECK_FALSE(AccessRecord::fits(unused_entry));
  check_round_trip(Shape{8, 8}, unused_entry, filed);
}

TEST_CASE("A dropped wide record's rectangle is not given back for a later one", "[model][races]") {
  const Shape huge{std::int64_t{1} << 40};
  AccessHistory history(huge);
  const auto stamp = [](AccessRecord& record) { record.stamp({0, 1}, true, {}, 0, 0); };
  const Rect first = rect_of_rank(1, std::int64_t{1} << 33, 8);
  const Rect second = rect_of_rank(1, std::int64_t{1} << 34, 16);
  const Rect third = rect_of_rank(1, 3, std::int64_t{1} << 32);
  history.add(first, stamp, true);
  history.sweep(Rect::whole(huge), [](const AccessRecord&, const Rect&) { return true; });  // drops it
  history.add(second, stamp, false);
  history.add(third, stamp, false);
  std::vector<Rect> found;
  history.sweep(Rect::whole(huge), [&](const AccessRecord& record, const Rect& rect) {
    CHECK(record.is_wide());
    found.push_back(rect);
    return false;
  });
  REQUIRE(found.size() == 2);
  check_same(found[0], third);  // bucket order: row 3 first
  check_same(found[1], second);
}

TEST_CASE("The line table gives each line one index, in order of first use", "[model][races]") {
  static const char* const kernel = "kernel.cpp";
  static const char* const other = "other.cpp";
  LineTable lines;
  CHECK(lines.index({kernel, 10}) == 0);
  CHECK(lines.index({kernel, 74}) == 1);  // the same cache entry as line 10
  CHECK(lines.index({other, 10}) == 2);   // the same line number in another file
  CHECK(lines.index({kernel, 10}) == 0);
  CHECK(lines.index({kernel, 74}) == 1);
  CHECK(lines.index({other, 10}) == 2);
  CHECK(lines.at(1).file == kernel);
  CHECK(lines.at(1).line == 74);
  CHECK(lines.at(2).file == other);
  CHECK(lines.at(2).line == 10);
}
