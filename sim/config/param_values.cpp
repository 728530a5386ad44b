#include "sim/config/param_values.hpp"

#include <limits>
#include <string>
#include <vector>

namespace weft::sim::detail {
namespace {

constexpr std::string_view params_section = "params";

std::int64_t read_param(const Field& field) {
  if (const auto* flag = field.node().as_boolean()) return flag->get() ? 1 : 0;
  return field.integer(std::numeric_limits<std::int64_t>::min());
}

const toml::table& params_table(const TomlDocument& document, const Entry& section) {
  return Field{document, std::string{params_section}, *section.key, *section.node}.table();
}

}  // namespace

void check_params_section(const TomlDocument& document, const Entry& section) {
  for (const Entry& entry : entries_in_source_order(params_table(document, section)))
    read_param(Field{document, dotted(params_section, entry.key->str()), *entry.key, *entry.node});
}

void apply_params_section(Params& params, const TomlDocument& document, const Entry& section) {
  for (const Entry& entry : entries_in_source_order(params_table(document, section))) {
    const Field field{document, dotted(params_section, entry.key->str()), *entry.key, *entry.node};
    const auto known = params.find(entry.key->str());
    if (known == params.end()) {
      std::vector<std::string_view> names;
      for (const auto& [name, value] : params) names.push_back(name);
      field.fail_at_key(names.empty()
                            ? "unknown parameter (the kernel has no parameters)"
                            : "unknown parameter (known parameters: " + join_list(names) + ")");
    }
    known->second = read_param(field);
  }
}

}  // namespace weft::sim::detail
