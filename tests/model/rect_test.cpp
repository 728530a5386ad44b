// Shapes and rectangles: overlap (what race detection and independence rest on), bounds checks,
// clipping, volume and the text form used in failure messages.

#include <catch2/catch.hpp>

#include "model/rect.hpp"

namespace {

using weft::model::Rect;
using weft::model::Shape;

Rect rect(std::initializer_list<std::pair<std::int64_t, std::int64_t>> dims) {
  Rect result;
  for (const auto& [start, size] : dims) {
    result.start[result.rank] = start;
    result.size[result.rank] = size;
    ++result.rank;
  }
  return result;
}

}  // namespace

TEST_CASE("Disjoint rectangles do not overlap, in either order", "[model]") {
  const Rect a = rect({{0, 4}, {0, 4}});
  const Rect right = rect({{0, 4}, {10, 2}});
  const Rect below = rect({{8, 2}, {0, 4}});
  CHECK_FALSE(a.overlaps(right));
  CHECK_FALSE(right.overlaps(a));
  CHECK_FALSE(a.overlaps(below));
  CHECK_FALSE(below.overlaps(a));
}

TEST_CASE("Rectangles that share only an edge do not overlap", "[model]") {
  const Rect a = rect({{0, 4}, {0, 4}});
  CHECK_FALSE(a.overlaps(rect({{4, 4}, {0, 4}})));  // below, touching row 4
  CHECK_FALSE(a.overlaps(rect({{0, 4}, {4, 4}})));  // right, touching column 4
  CHECK_FALSE(a.overlaps(rect({{4, 1}, {4, 1}})));  // diagonal corner
  CHECK_FALSE(rect({{4, 4}, {0, 4}}).overlaps(a));
  // One element further they do overlap.
  CHECK(a.overlaps(rect({{3, 4}, {0, 4}})));
  CHECK(a.overlaps(rect({{3, 1}, {3, 1}})));
}

TEST_CASE("Rectangles overlapping in every dimension overlap, in all but one they do not", "[model]") {
  const Rect a = rect({{0, 4}, {0, 4}, {0, 4}});
  CHECK(a.overlaps(rect({{2, 4}, {2, 4}, {2, 4}})));
  CHECK_FALSE(a.overlaps(rect({{2, 4}, {2, 4}, {4, 4}})));
  CHECK_FALSE(a.overlaps(rect({{4, 4}, {2, 4}, {2, 4}})));
}

TEST_CASE("A nested rectangle overlaps its container, both ways", "[model]") {
  const Rect outer = rect({{0, 16}, {0, 16}});
  const Rect inner = rect({{3, 2}, {5, 7}});
  CHECK(outer.overlaps(inner));
  CHECK(inner.overlaps(outer));
  CHECK(outer.overlaps(outer));
}

TEST_CASE("An empty rectangle overlaps nothing, not even a container", "[model]") {
  const Rect outer = rect({{0, 16}, {0, 16}});
  const Rect empty_rows = rect({{3, 0}, {5, 7}});
  const Rect empty_cols = rect({{3, 2}, {5, 0}});
  CHECK_FALSE(outer.overlaps(empty_rows));
  CHECK_FALSE(empty_rows.overlaps(outer));
  CHECK_FALSE(outer.overlaps(empty_cols));
  CHECK_FALSE(empty_cols.overlaps(empty_cols));
  CHECK(empty_rows.volume() == 0);
  CHECK(empty_cols.volume() == 0);
}

TEST_CASE("Single-index dimensions overlap only on the same index", "[model]") {
  // out[slot] style rectangles: size 1 in the indexed dimension.
  const Rect slot0 = rect({{0, 1}, {0, 128}});
  const Rect slot1 = rect({{1, 1}, {0, 128}});
  CHECK_FALSE(slot0.overlaps(slot1));
  CHECK_FALSE(slot1.overlaps(slot0));
  CHECK(slot1.overlaps(rect({{1, 1}, {127, 1}})));
  CHECK(slot0.overlaps(rect({{0, 2}, {64, 64}})));
  CHECK(slot1.overlaps(rect({{0, 2}, {64, 64}})));
}

TEST_CASE("Rectangles of different rank never overlap", "[model]") {
  const Rect flat = rect({{0, 8}});
  const Rect square = rect({{0, 8}, {0, 8}});
  CHECK_FALSE(flat.overlaps(square));
  CHECK_FALSE(square.overlaps(flat));
}

TEST_CASE("Rect::whole covers the shape and is inside it", "[model]") {
  const Shape shape{8, 128};
  const Rect whole = Rect::whole(shape);
  CHECK(whole.rank == 2);
  CHECK(whole.start[0] == 0);
  CHECK(whole.start[1] == 0);
  CHECK(whole.size[0] == 8);
  CHECK(whole.size[1] == 128);
  CHECK(whole.volume() == shape.volume());
  CHECK(whole.volume() == 1024);
  CHECK(whole.inside(shape));
  CHECK(whole == rect({{0, 8}, {0, 128}}));
}

TEST_CASE("Rect::inside accepts rectangles within bounds and rejects every kind of excess", "[model]") {
  const Shape shape{4, 6};
  CHECK(rect({{0, 4}, {0, 6}}).inside(shape));
  CHECK(rect({{3, 1}, {5, 1}}).inside(shape));
  CHECK(rect({{2, 0}, {6, 0}}).inside(shape));         // empty at the far edge
  CHECK_FALSE(rect({{0, 5}, {0, 6}}).inside(shape));   // too long
  CHECK_FALSE(rect({{4, 1}, {0, 6}}).inside(shape));   // starts past the end
  CHECK_FALSE(rect({{0, 4}, {1, 6}}).inside(shape));   // overhangs the last column
  CHECK_FALSE(rect({{-1, 2}, {0, 6}}).inside(shape));  // negative start
  CHECK_FALSE(rect({{0, -1}, {0, 6}}).inside(shape));  // negative size
  CHECK_FALSE(rect({{0, 4}}).inside(shape));           // rank mismatch
  CHECK_FALSE(rect({{0, 1}, {0, 1}, {0, 1}}).inside(shape));
}

TEST_CASE("Rect::clipped_to keeps the in-bounds part only", "[model]") {
  const Shape shape{4, 6};
  SECTION("an in-bounds rectangle is unchanged") {
    const Rect r = rect({{1, 2}, {2, 3}});
    CHECK(r.clipped_to(shape) == r);
  }
  SECTION("an overhang is cut at the far edge") {
    CHECK(rect({{2, 5}, {4, 5}}).clipped_to(shape) == rect({{2, 2}, {4, 2}}));
  }
  SECTION("a negative start is cut at zero") {
    CHECK(rect({{-2, 3}, {-10, 12}}).clipped_to(shape) == rect({{0, 1}, {0, 2}}));
  }
  SECTION("a rectangle entirely outside becomes empty") {
    const Rect clipped = rect({{10, 3}, {0, 6}}).clipped_to(shape);
    CHECK(clipped.volume() == 0);
    CHECK(clipped.inside(shape));
    const Rect before = rect({{0, 4}, {-8, 3}}).clipped_to(shape);
    CHECK(before.volume() == 0);
    CHECK(before.inside(shape));
  }
  SECTION("the clipped part is always inside, for many rectangles") {
    for (std::int64_t s0 = -5; s0 <= 6; ++s0)
      for (std::int64_t z0 = 0; z0 <= 7; ++z0)
        for (std::int64_t s1 = -7; s1 <= 8; s1 += 3)
          for (std::int64_t z1 = 0; z1 <= 9; z1 += 2) {
            const Rect r = rect({{s0, z0}, {s1, z1}});
            const Rect c = r.clipped_to(shape);
            CAPTURE(s0, z0, s1, z1);
            REQUIRE(c.inside(shape));
            REQUIRE(c.volume() <= r.volume());
            // Counting the in-bounds elements directly must agree with the clipped volume.
            std::int64_t count = 0;
            for (std::int64_t i = s0; i < s0 + z0; ++i)
              for (std::int64_t j = s1; j < s1 + z1; ++j) count += (i >= 0 && i < 4 && j >= 0 && j < 6);
            REQUIRE(c.volume() == count);
          }
  }
}

TEST_CASE("Volume multiplies the sizes and treats negative sizes as empty", "[model]") {
  CHECK(rect({{0, 3}}).volume() == 3);
  CHECK(rect({{5, 3}, {1, 4}}).volume() == 12);
  CHECK(rect({{0, 2}, {0, 3}, {0, 4}, {0, 5}}).volume() == 120);
  CHECK(rect({{0, 2}, {0, 0}, {0, 4}}).volume() == 0);
  CHECK(rect({{0, -3}, {0, 4}}).volume() == 0);
  CHECK(Shape{2, 3, 4, 5}.volume() == 120);
  CHECK(Shape{7}.volume() == 7);
  CHECK(Shape{3, 0}.volume() == 0);
}

TEST_CASE("Shape and Rect equality look only at the first rank dimensions", "[model]") {
  Shape a{2, 3};
  Shape b{2, 3};
  b.dims[3] = 99;  // beyond the rank: ignored
  CHECK(a == b);
  CHECK_FALSE(a == Shape{3, 2});
  CHECK_FALSE(a == Shape{2, 3, 1});
  Rect r = rect({{1, 2}});
  Rect s = rect({{1, 2}});
  s.start[2] = 7;
  CHECK(r == s);
  CHECK_FALSE(r == rect({{1, 3}}));
  CHECK_FALSE(r == rect({{0, 2}}));
  CHECK_FALSE(r == rect({{1, 2}, {0, 1}}));
}

TEST_CASE("to_string prints shapes as extents and rectangles as start:end ranges", "[model]") {
  CHECK(to_string(Shape{8, 128}) == "[8, 128]");
  CHECK(to_string(Shape{5}) == "[5]");
  CHECK(to_string(Shape{1, 2, 3, 4}) == "[1, 2, 3, 4]");
  CHECK(to_string(Shape{}) == "[]");
  CHECK(to_string(rect({{0, 8}, {3, 1}})) == "[0:8, 3:4]");
  CHECK(to_string(rect({{2, 5}})) == "[2:7]");
  CHECK(to_string(rect({{-1, 3}, {0, 0}})) == "[-1:2, 0:0]");
  CHECK(to_string(Rect{}) == "[]");
}
