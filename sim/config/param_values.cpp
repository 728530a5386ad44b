#include "sim/config/param_values.hpp"

#include <limits>
#include <string>
#include <vector>

namespace weft::sim::detail {
namespace {

constexpr std::string_view params_section = "params";

// A TOML value as a parameter value: integers, booleans, strings and arrays of them.
ParamValue read_value(const Field& field, const toml::node& node) {
  if (const auto* flag = node.as_boolean()) return ParamValue::boolean(flag->get());
  if (const auto* text = node.as_string()) return ParamValue::string(text->get());
  if (node.is_integer()) return field.integer_at(node, std::numeric_limits<std::int64_t>::min(), no_maximum);
  if (const auto* array = node.as_array()) {
    std::vector<ParamValue> items;
    for (const toml::node& item : *array) items.push_back(read_value(field, item));
    return ParamValue::list(std::move(items));
  }
  field.fail_type(node, "an integer, a boolean, a string or an array of them");
}

const toml::table& params_table(const TomlDocument& document, const Entry& section) {
  return Field{document, std::string{params_section}, *section.key, *section.node}.table();
}

}  // namespace

void check_params_section(const TomlDocument& document, const Entry& section) {
  for (const Entry& entry : entries_in_source_order(params_table(document, section))) {
    const Field field{document, dotted(params_section, entry.key->str()), *entry.key, *entry.node};
    read_value(field, field.node());
  }
}

void apply_params_section(Params& params, const TomlDocument& document, const Entry& section) {
  for (const Entry& entry : entries_in_source_order(params_table(document, section))) {
    const Field field{document, dotted(params_section, entry.key->str()), *entry.key, *entry.node};
    const auto known = params.find(entry.key->str());
    if (known == params.end()) {
      std::vector<std::string_view> names;
      for (const auto& [name, value] : params) names.push_back(name);
      field.fail_at_key(names.empty() ? "unknown parameter (the kernel has no parameters)"
                                      : "unknown parameter (known parameters: " + join_list(names) + ")");
    }
    ParamValue given = read_value(field, field.node());
    if (const std::string expected = kind_mismatch(known->second, given); !expected.empty())
      field.fail("expected " + expected + " (the kernel's default is " + to_toml(known->second) + "), found " +
                 to_toml(given));
    if (known->second.kind() == ParamValue::Kind::integer && given.kind() == ParamValue::Kind::boolean)
      given = ParamValue(given.as_integer());  // an integer parameter given as true / false
    known->second = std::move(given);
  }
}

}  // namespace weft::sim::detail
