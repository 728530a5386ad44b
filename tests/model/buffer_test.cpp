// Buffers: the uninitialized fill, rectangle reads and writes of 1-D to 4-D buffers (checked
// against a plain row-major reference), and reads that reach outside the buffer.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "model/buffer.hpp"

namespace {

using namespace weft::model;

// A small deterministic generator for test data (splitmix64).
class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (z ^ (z >> 31)) % bound;
  }

 private:
  std::uint64_t state_;
};

Buffer make(ElementType type, const Shape& shape, Uninitialized fill = Uninitialized::nan) {
  return Buffer(BufferInfo{1, Space::hbm, 0, -1, type, shape, "b"}, fill);
}

template <class T>
std::vector<T> read(const Buffer& buffer, const Rect& rect) {
  std::vector<T> out(static_cast<std::size_t>(rect.volume()));
  buffer.read(rect, reinterpret_cast<std::byte*>(out.data()));
  return out;
}

template <class T>
void write(Buffer& buffer, const Rect& rect, const std::vector<T>& values) {
  REQUIRE(static_cast<std::int64_t>(values.size()) == rect.volume());
  buffer.write(rect, reinterpret_cast<const std::byte*>(values.data()));
}

// Row-major offset of an index within a shape.
std::int64_t offset(const Shape& shape, const std::array<std::int64_t, max_rank>& index) {
  std::int64_t result = 0;
  for (int d = 0; d < shape.rank; ++d) result = result * shape.dims[d] + index[d];
  return result;
}

// Calls f(index) for every index of a rectangle, in row-major order.
template <class F>
void for_each_index(const Rect& rect, F f) {
  if (rect.volume() == 0) return;
  std::array<std::int64_t, max_rank> index{};
  for (int d = 0; d < rect.rank; ++d) index[d] = rect.start[d];
  while (true) {
    f(index);
    int d = rect.rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < rect.start[d] + rect.size[d]) break;
      index[d] = rect.start[d];
    }
    if (d < 0) return;
  }
}

bool contains(const Rect& rect, const std::array<std::int64_t, max_rank>& index) {
  for (int d = 0; d < rect.rank; ++d)
    if (index[d] < rect.start[d] || index[d] >= rect.start[d] + rect.size[d]) return false;
  return true;
}

}  // namespace

TEST_CASE("A new f32 buffer under the nan policy holds NaN everywhere", "[model]") {
  const Buffer buffer = make(ElementType::f32, Shape{3, 5});
  const float* data = buffer.data<float>();
  for (int i = 0; i < 15; ++i) CHECK(std::isnan(data[i]));
  CHECK(buffer.bytes() == 60);
}

TEST_CASE("A new i32 buffer under the nan policy holds INT32_MAX everywhere", "[model]") {
  const Buffer buffer = make(ElementType::i32, Shape{2, 2, 3});
  const std::int32_t* data = buffer.data<std::int32_t>();
  for (int i = 0; i < 12; ++i) CHECK(data[i] == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("Every element type has its byte size, its name and its nan-policy value", "[model][dtype]") {
  struct Expected {
    ElementType type;
    const char* name;
    std::int64_t bytes;
  };
  const std::vector<Expected> table{
      {ElementType::f32, "f32", 4}, {ElementType::bf16, "bf16", 2}, {ElementType::f16, "f16", 2},
      {ElementType::i32, "i32", 4}, {ElementType::i16, "i16", 2},   {ElementType::i8, "i8", 1},
      {ElementType::u8, "u8", 1},   {ElementType::u32, "u32", 4},   {ElementType::boolean, "bool", 1}};
  REQUIRE(table.size() == std::size(all_element_types));
  for (const Expected& row : table) {
    CAPTURE(row.name);
    CHECK(to_string(row.type) == row.name);
    CHECK(element_bytes(row.type) == row.bytes);
    const Buffer buffer = make(row.type, Shape{5, 3});
    CHECK(buffer.bytes() == 15 * row.bytes);
    const Buffer zero = make(row.type, Shape{5, 3}, Uninitialized::zero);
    for (std::int64_t k = 0; k < zero.bytes(); ++k) CHECK(zero.data<std::uint8_t>()[k] == 0);
  }
  const auto all = [](const Buffer& buffer, auto holds) {
    for (std::int64_t k = 0; k < buffer.info().shape.volume(); ++k)
      if (!holds(k)) return false;
    return true;
  };
  const Buffer bf = make(ElementType::bf16, Shape{7}), h = make(ElementType::f16, Shape{7});
  CHECK(all(bf, [&](std::int64_t k) { return Eigen::numext::isnan(bf.data<Eigen::bfloat16>()[k]); }));
  CHECK(all(h, [&](std::int64_t k) { return Eigen::numext::isnan(h.data<Eigen::half>()[k]); }));
  const Buffer i16 = make(ElementType::i16, Shape{7}), i8 = make(ElementType::i8, Shape{7});
  const Buffer u8 = make(ElementType::u8, Shape{7}), u32 = make(ElementType::u32, Shape{7});
  const Buffer pred = make(ElementType::boolean, Shape{7});
  CHECK(all(i16, [&](std::int64_t k) { return i16.data<std::int16_t>()[k] == INT16_MAX; }));
  CHECK(all(i8, [&](std::int64_t k) { return i8.data<std::int8_t>()[k] == INT8_MAX; }));
  CHECK(all(u8, [&](std::int64_t k) { return u8.data<std::uint8_t>()[k] == UINT8_MAX; }));
  CHECK(all(u32, [&](std::int64_t k) { return u32.data<std::uint32_t>()[k] == UINT32_MAX; }));
  CHECK(all(pred, [&](std::int64_t k) { return pred.data<bool>()[k]; }));
}

TEST_CASE("Reads and writes of 1- and 2-byte elements copy exactly their rectangle", "[model][dtype]") {
  Buffer buffer = make(ElementType::i16, Shape{3, 4}, Uninitialized::zero);
  write<std::int16_t>(buffer, Rect{2, {1, 1}, {2, 2}}, {1, 2, 3, 4});
  CHECK(read<std::int16_t>(buffer, Rect::whole(Shape{3, 4})) ==
        std::vector<std::int16_t>{0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0});
  Buffer bytes = make(ElementType::u8, Shape{5});
  write<std::uint8_t>(bytes, Rect{1, {1}, {2}}, {7, 8});
  CHECK(read<std::uint8_t>(bytes, Rect{1, {0}, {6}}) == std::vector<std::uint8_t>{255, 7, 8, 255, 255, 255});
}

TEST_CASE("New buffers under the zero policy hold zeros", "[model]") {
  const Buffer f = make(ElementType::f32, Shape{7}, Uninitialized::zero);
  const Buffer i = make(ElementType::i32, Shape{7}, Uninitialized::zero);
  for (int k = 0; k < 7; ++k) {
    CHECK(f.data<float>()[k] == 0.0f);
    CHECK_FALSE(std::signbit(f.data<float>()[k]));
    CHECK(i.data<std::int32_t>()[k] == 0);
  }
}

TEST_CASE("fill_uninitialized writes exactly count elements", "[model]") {
  std::vector<std::int32_t> out(6, 42);
  Buffer::fill_uninitialized(ElementType::i32, Uninitialized::nan, reinterpret_cast<std::byte*>(out.data()), 4);
  CHECK(out == std::vector<std::int32_t>{INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, 42, 42});
  Buffer::fill_uninitialized(ElementType::i32, Uninitialized::zero, reinterpret_cast<std::byte*>(out.data()), 2);
  CHECK(out == std::vector<std::int32_t>{0, 0, INT32_MAX, INT32_MAX, 42, 42});
}

TEST_CASE("fill_uninitialized fills whole blocks and the rest, for both types, and stops at count", "[model]") {
  for (const std::int64_t count : {1, 63, 64, 65, 127, 300}) {
    INFO("count " << count);
    std::vector<std::int32_t> ints(static_cast<std::size_t>(count) + 3, 42);
    Buffer::fill_uninitialized(ElementType::i32, Uninitialized::nan, reinterpret_cast<std::byte*>(ints.data()), count);
    for (std::int64_t k = 0; k < count; ++k) CHECK(ints[static_cast<std::size_t>(k)] == INT32_MAX);
    for (std::size_t k = static_cast<std::size_t>(count); k < ints.size(); ++k) CHECK(ints[k] == 42);
    std::vector<float> floats(static_cast<std::size_t>(count) + 3, 1.5f);
    Buffer::fill_uninitialized(ElementType::f32, Uninitialized::nan, reinterpret_cast<std::byte*>(floats.data()),
                               count);
    for (std::int64_t k = 0; k < count; ++k) CHECK(std::isnan(floats[static_cast<std::size_t>(k)]));
    for (std::size_t k = static_cast<std::size_t>(count); k < floats.size(); ++k) CHECK(floats[k] == 1.5f);
  }
}

TEST_CASE("describe names space, id, name, type, shape, device and owning core", "[model]") {
  CHECK(describe(BufferInfo{3, Space::hbm, 1, -1, ElementType::f32, Shape{8, 128}, "x"}) ==
        "hbm buffer 3 'x' f32[8, 128] on device 1");
  CHECK(describe(BufferInfo{101, Space::vmem, 2, 1, ElementType::i32, Shape{4}, ""}) ==
        "vmem buffer 101 i32[4] on device 2 core 1");
}

TEST_CASE("Writing a sub-rectangle then reading it back round-trips and leaves the rest untouched", "[model]") {
  // One shape per rank; every element first gets a distinct value, then a random rectangle is
  // overwritten and the whole buffer compared with a reference.
  const std::vector<Shape> shapes{Shape{11}, Shape{5, 7}, Shape{3, 4, 5}, Shape{2, 3, 4, 5}};
  const std::uint64_t seed = GENERATE(1, 2, 3, 4, 5, 6, 7, 8);
  CAPTURE(seed);
  TestRandom random(seed);
  for (const Shape& shape : shapes) {
    CAPTURE(to_string(shape));
    Buffer buffer = make(ElementType::i32, shape);
    const Rect whole = Rect::whole(shape);
    std::vector<std::int32_t> reference(static_cast<std::size_t>(shape.volume()));
    for (std::size_t k = 0; k < reference.size(); ++k) reference[k] = static_cast<std::int32_t>(k * 3 + 1);
    write(buffer, whole, reference);
    REQUIRE(read<std::int32_t>(buffer, whole) == reference);

    for (int round = 0; round < 20; ++round) {
      Rect r;
      r.rank = shape.rank;
      for (int d = 0; d < shape.rank; ++d) {
        r.start[d] = static_cast<std::int64_t>(random.below(static_cast<std::uint64_t>(shape.dims[d])));
        r.size[d] = 1 + static_cast<std::int64_t>(random.below(static_cast<std::uint64_t>(shape.dims[d] - r.start[d])));
      }
      CAPTURE(round, to_string(r));
      std::vector<std::int32_t> values(static_cast<std::size_t>(r.volume()));
      for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = static_cast<std::int32_t>(-1000 * (round + 1) - static_cast<std::int32_t>(k));
      write(buffer, r, values);
      std::size_t k = 0;
      for_each_index(
          r, [&](const auto& index) { reference[static_cast<std::size_t>(offset(shape, index))] = values[k++]; });
      REQUIRE(read<std::int32_t>(buffer, r) == values);
      REQUIRE(read<std::int32_t>(buffer, whole) == reference);
    }
  }
}

TEST_CASE("A 2-D write touches exactly its rectangle", "[model]") {
  Buffer buffer = make(ElementType::f32, Shape{3, 4}, Uninitialized::zero);
  write<float>(buffer, Rect{2, {1, 1}, {2, 2}}, {1, 2, 3, 4});
  const std::vector<float> expected{0, 0, 0, 0,  //
                                    0, 1, 2, 0,  //
                                    0, 3, 4, 0};
  CHECK(read<float>(buffer, Rect::whole(Shape{3, 4})) == expected);
  CHECK(read<float>(buffer, Rect{2, {2, 0}, {1, 4}}) == std::vector<float>{0, 3, 4, 0});
  CHECK(read<float>(buffer, Rect{2, {0, 2}, {3, 1}}) == std::vector<float>{0, 2, 4});
}

TEST_CASE("A read that reaches outside the buffer fills the outside with the uninitialized value", "[model]") {
  SECTION("i32, nan policy, 2-D overhang on both sides") {
    const Shape shape{3, 3};
    Buffer buffer = make(ElementType::i32, shape);
    write<std::int32_t>(buffer, Rect::whole(shape), {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const Rect r{2, {-1, 1}, {3, 3}};  // rows -1..1, columns 1..3
    const std::int32_t u = INT32_MAX;
    CHECK(read<std::int32_t>(buffer, r) == std::vector<std::int32_t>{u, u, u, 2, 3, u, 5, 6, u});
  }
  SECTION("f32, zero policy") {
    Buffer buffer = make(ElementType::f32, Shape{4}, Uninitialized::zero);
    write<float>(buffer, Rect::whole(Shape{4}), {5, 6, 7, 8});
    CHECK(read<float>(buffer, Rect{1, {2}, {5}}) == std::vector<float>{7, 8, 0, 0, 0});
  }
  SECTION("f32, entirely or partly outside, under each policy") {
    Buffer buffer = make(ElementType::f32, Shape{4}, Uninitialized::zero);
    write<float>(buffer, Rect::whole(Shape{4}), {5, 6, 7, 8});
    // The buffer's own policy is zero: the fill follows it, not NaN.
    CHECK(read<float>(buffer, Rect{1, {10}, {2}}) == std::vector<float>{0, 0});
    Buffer nan_buffer = make(ElementType::f32, Shape{4});
    write<float>(nan_buffer, Rect::whole(Shape{4}), {5, 6, 7, 8});
    const auto out = read<float>(nan_buffer, Rect{1, {3}, {3}});
    CHECK(out[0] == 8.0f);
    CHECK(std::isnan(out[1]));
    CHECK(std::isnan(out[2]));
  }
  SECTION("randomized 3-D rectangles against a reference") {
    const Shape shape{3, 4, 5};
    Buffer buffer = make(ElementType::i32, shape);
    std::vector<std::int32_t> values(60);
    for (int k = 0; k < 60; ++k) values[static_cast<std::size_t>(k)] = k;
    write(buffer, Rect::whole(shape), values);
    for (std::uint64_t seed = 11; seed <= 13; ++seed) {
      CAPTURE(seed);
      TestRandom random(seed);
      for (int round = 0; round < 50; ++round) {
        Rect r;
        r.rank = 3;
        for (int d = 0; d < 3; ++d) {
          r.start[d] = static_cast<std::int64_t>(random.below(static_cast<std::uint64_t>(shape.dims[d] + 6))) - 3;
          r.size[d] = 1 + static_cast<std::int64_t>(random.below(static_cast<std::uint64_t>(shape.dims[d] + 2)));
        }
        CAPTURE(round, to_string(r));
        std::vector<std::int32_t> expected;
        for_each_index(r, [&](const auto& index) {
          expected.push_back(
              contains(Rect::whole(shape), index) ? values[static_cast<std::size_t>(offset(shape, index))] : INT32_MAX);
        });
        REQUIRE(read<std::int32_t>(buffer, r) == expected);
      }
    }
  }
}
