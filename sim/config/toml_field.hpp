#pragma once
// Internal to weft_config (includes toml++). Typed reads of one TOML value: each read checks
// the type and range and, when they are wrong, throws a ConfigError that names the source,
// line, column and dotted key.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "sim/config/toml_document.hpp"

namespace weft::sim::detail {

inline constexpr std::int64_t no_maximum = std::numeric_limits<std::int64_t>::max();

// One allowed word of an enumerated key and the value it stands for.
template <typename Enum>
struct Choice {
  std::string_view name;
  Enum value;
};

// "a, b or c".
std::string join_alternatives(std::span<const std::string_view> names);
// "a, b, c".
std::string join_list(std::span<const std::string_view> names);
// "an integer", "a string", ... for "expected X, found Y".
std::string type_phrase(toml::node_type type);

class Field {
 public:
  Field(const TomlDocument& document, std::string key, const toml::key& name, const toml::node& node);

  const std::string& key() const { return key_; }
  const toml::key& name() const { return *name_; }
  const toml::node& node() const { return *node_; }

  std::int64_t integer(std::int64_t min, std::int64_t max = no_maximum) const;
  // An integer or a floating-point number (not NaN) within [min, max].
  double number(double min, double max) const;
  bool boolean() const;
  std::string string() const;
  const toml::table& table() const;
  const toml::array& array() const;
  template <typename Enum, std::size_t N>
  Enum choice(const std::array<Choice<Enum>, N>& choices) const;

  // A string that must be one of `names`.
  std::string one_of(std::span<const std::string_view> names) const;

  // An integer nested inside this field (an array element), reported under this field's key.
  std::int64_t integer_at(const toml::node& inner, std::int64_t min, std::int64_t max) const;

  [[noreturn]] void fail(std::string message) const;  // at the value
  [[noreturn]] void fail_at_key(std::string message) const;
  [[noreturn]] void fail_at(const toml::node& inner, std::string message) const;
  [[noreturn]] void fail_type(const toml::node& inner, std::string_view expected) const;

 private:
  const TomlDocument* document_;
  std::string key_;
  const toml::key* name_;
  const toml::node* node_;
};

template <typename Enum, std::size_t N>
Enum Field::choice(const std::array<Choice<Enum>, N>& choices) const {
  const std::string word = string();
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) {
    if (choices[i].name == word) return choices[i].value;
    names[i] = choices[i].name;
  }
  fail("unknown value '" + word + "' (expected " + join_alternatives(names) + ")");
}

}  // namespace weft::sim::detail
