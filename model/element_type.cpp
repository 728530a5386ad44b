#include "model/element_type.hpp"

#include <cstring>
#include <limits>

namespace weft::model {

std::string_view to_string(ElementType type) {
  switch (type) {
    case ElementType::f32:
      return "f32";
    case ElementType::bf16:
      return "bf16";
    case ElementType::f16:
      return "f16";
    case ElementType::i32:
      return "i32";
    case ElementType::i16:
      return "i16";
    case ElementType::i8:
      return "i8";
    case ElementType::u8:
      return "u8";
    case ElementType::u32:
      return "u32";
    case ElementType::boolean:
      return "bool";
  }
  return "?";
}

void nan_policy_value(ElementType type, std::byte* out) {
  with_element_type(type, [&](auto zero) {
    using T = decltype(zero);
    using Limits = std::numeric_limits<T>;
    const T value = Limits::has_quiet_NaN ? Limits::quiet_NaN() : Limits::max();
    std::memcpy(out, &value, sizeof(T));
  });
}

}  // namespace weft::model
