#include "sim/config/params.hpp"

#include <stdexcept>

namespace weft::sim {
namespace {

std::string with_article(ParamValue::Kind kind) {
  const std::string name{to_string(kind)};
  return (kind == ParamValue::Kind::integer ? "an " : "a ") + name;
}

[[noreturn]] void wrong_kind(ParamValue::Kind has, std::string_view asked) {
  throw std::invalid_argument("the parameter is " + with_article(has) + ", read as " + std::string(asked));
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

ParamValue ParamValue::boolean(bool value) {
  ParamValue made;
  made.kind_ = Kind::boolean;
  made.integer_ = value ? 1 : 0;
  return made;
}

ParamValue ParamValue::string(std::string value) {
  ParamValue made;
  made.kind_ = Kind::string;
  made.string_ = std::move(value);
  return made;
}

ParamValue ParamValue::list(std::vector<ParamValue> items) {
  ParamValue made;
  made.kind_ = Kind::list;
  made.list_ = std::move(items);
  return made;
}

std::int64_t ParamValue::as_integer() const {
  if (kind_ != Kind::integer && kind_ != Kind::boolean) wrong_kind(kind_, "an integer");
  return integer_;
}

bool ParamValue::as_boolean() const {
  if (kind_ != Kind::boolean) wrong_kind(kind_, "a boolean");
  return integer_ != 0;
}

const std::string& ParamValue::as_string() const {
  if (kind_ != Kind::string) wrong_kind(kind_, "a string");
  return string_;
}

const std::vector<ParamValue>& ParamValue::as_list() const {
  if (kind_ != Kind::list) wrong_kind(kind_, "a list");
  return list_;
}

std::vector<std::int64_t> ParamValue::as_integers() const {
  std::vector<std::int64_t> out;
  for (const ParamValue& item : as_list()) out.push_back(item.as_integer());
  return out;
}

std::vector<std::vector<std::int64_t>> ParamValue::as_integer_lists() const {
  std::vector<std::vector<std::int64_t>> out;
  for (const ParamValue& item : as_list()) out.push_back(item.as_integers());
  return out;
}

std::string_view to_string(ParamValue::Kind kind) {
  switch (kind) {
    case ParamValue::Kind::integer:
      return "integer";
    case ParamValue::Kind::boolean:
      return "boolean";
    case ParamValue::Kind::string:
      return "string";
    case ParamValue::Kind::list:
      return "list";
  }
  return "?";
}

std::string to_toml(const ParamValue& value) {
  switch (value.kind()) {
    case ParamValue::Kind::integer:
      return std::to_string(value.as_integer());
    case ParamValue::Kind::boolean:
      return value.as_boolean() ? "true" : "false";
    case ParamValue::Kind::string:
      return quoted(value.as_string());
    case ParamValue::Kind::list:
      break;
  }
  std::string text = "[";
  for (const ParamValue& item : value.as_list()) text += (text.size() > 1 ? ", " : "") + to_toml(item);
  return text + "]";
}

std::string kind_mismatch(const ParamValue& default_value, const ParamValue& given) {
  using Kind = ParamValue::Kind;
  const Kind want = default_value.kind();
  if (given.kind() == want || (want == Kind::integer && given.kind() == Kind::boolean)) {
    if (want != Kind::list || default_value.as_list().empty()) return {};
    const ParamValue& model = default_value.as_list().front();
    for (const ParamValue& item : given.as_list())
      if (!kind_mismatch(model, item).empty()) return "a list of " + std::string(to_string(model.kind())) + "s";
    return {};
  }
  return with_article(want);
}

}  // namespace weft::sim
