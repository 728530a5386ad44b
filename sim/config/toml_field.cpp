#include "sim/config/toml_field.hpp"

#include <sstream>
#include <utility>

namespace weft::sim::detail {

std::string join_alternatives(std::span<const std::string_view> names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += (i + 1 == names.size()) ? " or " : ", ";
    text += names[i];
  }
  return text;
}

std::string join_list(std::span<const std::string_view> names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += ", ";
    text += names[i];
  }
  return text;
}

std::string type_phrase(toml::node_type type) {
  switch (type) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

Field::Field(const TomlDocument& document, std::string key, const toml::key& name, const toml::node& node)
    : document_(&document), key_(std::move(key)), name_(&name), node_(&node) {}

std::int64_t Field::integer(std::int64_t min, std::int64_t max) const { return integer_at(*node_, min, max); }

std::int64_t Field::integer_at(const toml::node& inner, std::int64_t min, std::int64_t max) const {
  const auto* value = inner.as_integer();
  if (value == nullptr) fail_type(inner, "an integer");
  const std::int64_t number = value->get();
  if (number < min || number > max) {
    const std::string range =
        max == no_maximum ? "at least " + std::to_string(min) : std::to_string(min) + ".." + std::to_string(max);
    fail_at(inner, "value " + std::to_string(number) + " is out of range (expected " + range + ")");
  }
  return number;
}

double Field::number(double min, double max) const {
  double value = 0;
  if (const auto* integer = node_->as_integer()) {
    value = static_cast<double>(integer->get());
  } else if (const auto* floating = node_->as_floating_point()) {
    value = floating->get();
  } else {
    fail_type(*node_, "a number");
  }
  if (!(value >= min && value <= max)) {  // also rejects NaN
    std::ostringstream range;
    range << "value " << value << " is out of range (expected " << min << ".." << max << ")";
    fail(range.str());
  }
  return value;
}

bool Field::boolean() const {
  const auto* value = node_->as_boolean();
  if (value == nullptr) fail_type(*node_, "a boolean");
  return value->get();
}

std::string Field::string() const {
  const auto* value = node_->as_string();
  if (value == nullptr) fail_type(*node_, "a string");
  return value->get();
}

std::string Field::one_of(std::span<const std::string_view> names) const {
  std::string word = string();
  for (const std::string_view name : names)
    if (name == word) return word;
  fail("unknown value '" + word + "' (expected " + join_alternatives(names) + ")");
}

const toml::table& Field::table() const {
  const auto* value = node_->as_table();
  if (value == nullptr) fail_type(*node_, "a table");
  return *value;
}

const toml::array& Field::array() const {
  const auto* value = node_->as_array();
  if (value == nullptr) fail_type(*node_, "an array");
  return *value;
}

void Field::fail(std::string message) const { fail_at(*node_, std::move(message)); }

void Field::fail_at_key(std::string message) const { document_->fail(name_->source().begin, key_, std::move(message)); }

void Field::fail_at(const toml::node& inner, std::string message) const {
  document_->fail(inner.source().begin, key_, std::move(message));
}

void Field::fail_type(const toml::node& inner, std::string_view expected) const {
  fail_at(inner, "expected " + std::string{expected} + ", found " + type_phrase(inner.type()));
}

}  // namespace weft::sim::detail
