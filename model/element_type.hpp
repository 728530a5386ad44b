#pragma once
// The element types a buffer may hold, as Pallas TPU kernels use them: f32, bf16, f16, i32, i16,
// i8, u8, u32 and bool. Each has its C++ type (Eigen's bfloat16 and half for the two 16-bit
// floats), its size in bytes (what allocations count against a space's capacity and what a
// DMA's semaphores count), and its uninitialized value under the `nan` memory policy: NaN where
// the type has one, else its maximum (true for bool).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <Eigen/Core>

namespace weft::model {

enum class ElementType : std::uint8_t { f32, bf16, f16, i32, i16, i8, u8, u32, boolean };

// Every element type, in declaration order (for tests and tables).
inline constexpr ElementType all_element_types[] = {ElementType::f32, ElementType::bf16, ElementType::f16,
                                                    ElementType::i32, ElementType::i16,  ElementType::i8,
                                                    ElementType::u8,  ElementType::u32,  ElementType::boolean};

std::string_view to_string(ElementType type);  // "f32", "bf16", ..., "bool"

constexpr std::int64_t element_bytes(ElementType type) {
  switch (type) {
    case ElementType::f32:
    case ElementType::i32:
    case ElementType::u32:
      return 4;
    case ElementType::bf16:
    case ElementType::f16:
    case ElementType::i16:
      return 2;
    case ElementType::i8:
    case ElementType::u8:
    case ElementType::boolean:
      return 1;
  }
  return 0;
}

// Whether elements of `type` can be added (every type but bool).
constexpr bool is_numeric(ElementType type) { return type != ElementType::boolean; }

// Writes the `nan` policy's uninitialized value of `type` into `out` (element_bytes(type) bytes).
void nan_policy_value(ElementType type, std::byte* out);

// The element type of a C++ type; only the nine below have one.
template <class T>
constexpr ElementType element_type_of() = delete;
template <>
constexpr ElementType element_type_of<float>() {
  return ElementType::f32;
}
template <>
constexpr ElementType element_type_of<Eigen::bfloat16>() {
  return ElementType::bf16;
}
template <>
constexpr ElementType element_type_of<Eigen::half>() {
  return ElementType::f16;
}
template <>
constexpr ElementType element_type_of<std::int32_t>() {
  return ElementType::i32;
}
template <>
constexpr ElementType element_type_of<std::int16_t>() {
  return ElementType::i16;
}
template <>
constexpr ElementType element_type_of<std::int8_t>() {
  return ElementType::i8;
}
template <>
constexpr ElementType element_type_of<std::uint8_t>() {
  return ElementType::u8;
}
template <>
constexpr ElementType element_type_of<std::uint32_t>() {
  return ElementType::u32;
}
template <>
constexpr ElementType element_type_of<bool>() {
  return ElementType::boolean;
}
static_assert(sizeof(bool) == 1 && sizeof(Eigen::bfloat16) == 2 && sizeof(Eigen::half) == 2,
              "buffers copy elements as bytes: each C++ type must be as large as its element type");

// Calls f(T{}) with the C++ type of `type` (for code that works on any element type).
template <class F>
decltype(auto) with_element_type(ElementType type, F&& f) {
  switch (type) {
    case ElementType::f32:
      return f(float{});
    case ElementType::bf16:
      return f(Eigen::bfloat16{});
    case ElementType::f16:
      return f(Eigen::half{});
    case ElementType::i32:
      return f(std::int32_t{});
    case ElementType::i16:
      return f(std::int16_t{});
    case ElementType::i8:
      return f(std::int8_t{});
    case ElementType::u8:
      return f(std::uint8_t{});
    case ElementType::u32:
      return f(std::uint32_t{});
    case ElementType::boolean:
      return f(bool{});
  }
  return f(float{});
}

}  // namespace weft::model
