// Masks as rectangles (model/mask.hpp): the rectangles cover exactly the kept elements, are
// disjoint and inside the slice; the masks kernels write cost one rectangle per block of alike
// rows.

#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "model/mask.hpp"

namespace {

using namespace weft::model;
using Index = std::array<std::int64_t, max_rank>;

// Every index of `rect` in row-major order.
std::vector<Index> indices(const Rect& rect) {
  std::vector<Index> out;
  if (rect.volume() == 0) return out;
  Index index{};
  for (int d = 0; d < rect.rank; ++d) index[d] = rect.start[d];
  while (true) {
    out.push_back(index);
    int d = rect.rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < rect.start[d] + rect.size[d]) break;
      index[d] = rect.start[d];
    }
    if (d < 0) return out;
  }
}

// The kept indices as the parts say, each once (a repeat fails the check).
std::set<Index> covered(const std::vector<Rect>& parts) {
  std::set<Index> out;
  for (const Rect& part : parts)
    for (const Index& index : indices(part)) CHECK(out.insert(index).second);
  return out;
}

std::set<Index> kept(const Rect& rect, const std::vector<char>& keep) {
  std::set<Index> out;
  const auto all = indices(rect);
  for (std::size_t k = 0; k < all.size(); ++k)
    if (keep[k]) out.insert(all[k]);
  return out;
}

std::vector<Rect> parts_of(const Rect& rect, const std::vector<char>& keep) {
  std::vector<Rect> parts{Rect{}};  // replaced, not appended to
  mask_parts(rect, reinterpret_cast<const bool*>(keep.data()), parts);
  return parts;
}

Rect rect_of(std::initializer_list<std::int64_t> start, std::initializer_list<std::int64_t> size) {
  Rect rect;
  rect.rank = static_cast<int>(start.size());
  std::copy(start.begin(), start.end(), rect.start.begin());
  std::copy(size.begin(), size.end(), rect.size.begin());
  return rect;
}

}  // namespace

TEST_CASE("A mask's rectangles cover exactly its kept elements, once each, in any rank", "[model][mask]") {
  std::uint64_t state = 7;
  const auto next = [&] {  // a small LCG: test data only
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  const std::vector<Rect> rects{rect_of({3}, {11}), rect_of({1, 2}, {5, 7}), rect_of({0, 2, 1}, {3, 4, 5}),
                                rect_of({2, 0, 1, 0}, {2, 3, 2, 4}), rect_of({4, 0}, {1, 9})};
  for (const Rect& rect : rects) {
    for (int round = 0; round < 40; ++round) {
      const std::uint64_t density = next() % 5;  // 0: none kept ... 4: all kept
      std::vector<char> keep(static_cast<std::size_t>(rect.volume()));
      for (char& k : keep) k = (next() % 4) < density;
      CAPTURE(to_string(rect), round);
      const auto parts = parts_of(rect, keep);
      for (const Rect& part : parts) CHECK(part.inside_of(rect));
      CHECK(covered(parts) == kept(rect, keep));
    }
  }
}

TEST_CASE("Column and row bounds are one rectangle, a triangle is one per row", "[model][mask]") {
  const Rect rect = rect_of({8, 0}, {6, 10});
  std::vector<char> columns(60), rows(60), triangle(60), none(60, 0), all(60, 1);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 10; ++c) {
      columns[static_cast<std::size_t>(r * 10 + c)] = c < 7;
      rows[static_cast<std::size_t>(r * 10 + c)] = r >= 2;
      triangle[static_cast<std::size_t>(r * 10 + c)] = c <= r;
    }
  CHECK(parts_of(rect, columns) == std::vector<Rect>{rect_of({8, 0}, {6, 7})});
  CHECK(parts_of(rect, rows) == std::vector<Rect>{rect_of({10, 0}, {4, 10})});
  CHECK(parts_of(rect, triangle).size() == 6);
  CHECK(parts_of(rect, none).empty());
  CHECK(parts_of(rect, all) == std::vector<Rect>{rect});
}

TEST_CASE("Alike rows merge only along the next-to-last dimension, not across a leading index", "[model][mask]") {
  // [2, 3, 4]: every row keeps columns 1..2; rows merge within each leading index, not across.
  const Rect rect = rect_of({0, 0, 0}, {2, 3, 4});
  std::vector<char> keep(24);
  for (int k = 0; k < 24; ++k) keep[static_cast<std::size_t>(k)] = k % 4 == 1 || k % 4 == 2;
  CHECK(parts_of(rect, keep) == std::vector<Rect>{rect_of({0, 0, 1}, {1, 3, 2}), rect_of({1, 0, 1}, {1, 3, 2})});
}

TEST_CASE("A scalar's mask keeps it or not, an empty rectangle has no parts", "[model][mask]") {
  const Rect scalar;
  CHECK(parts_of(scalar, {1}) == std::vector<Rect>{scalar});
  CHECK(parts_of(scalar, {0}).empty());
  CHECK(parts_of(rect_of({0, 0}, {0, 4}), {}).empty());
}
