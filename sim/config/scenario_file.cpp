#include "sim/config/scenario_file.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "sim/config/config_schema.hpp"
#include "sim/config/param_values.hpp"
#include "sim/config/text_file.hpp"
#include "sim/config/toml_document.hpp"
#include "sim/config/toml_field.hpp"

namespace weft::sim {
namespace {

constexpr std::array<std::string_view, 6> scenario_keys{"kernel", "kernels",      "config",
                                                        "expect", "found_within", "description"};
constexpr std::array<std::string_view, 1> scenario_sections{"params"};
constexpr detail::OtherTopLevel scenario_top_level{scenario_keys, scenario_sections};

std::string non_empty_string(const detail::Field& field) {
  std::string text = field.string();
  if (text.empty()) field.fail("expected a non-empty string");
  return text;
}

model::Verdict read_verdict(const detail::Field& field) {
  const std::string name = field.string();
  const std::optional<model::Verdict> verdict = model::parse_verdict(name);
  if (!verdict)
    field.fail("unknown verdict '" + name + "' (expected one of: " + std::string{model::verdict_names()} + ")");
  return *verdict;
}

void read_top_level_key(ScenarioFile& scenario, const detail::TomlDocument& document, const detail::Entry& entry) {
  const std::string_view name = entry.key->str();
  const detail::Field field{document, std::string{name}, *entry.key, *entry.node};
  if (name == "kernel") {
    scenario.kernel = non_empty_string(field);
  } else if (name == "config") {
    scenario.config = (scenario.path.parent_path() / non_empty_string(field)).lexically_normal();
  } else if (name == "kernels") {
    scenario.kernels = (scenario.path.parent_path() / non_empty_string(field)).lexically_normal();
  } else if (name == "expect") {
    scenario.expect = read_verdict(field);
  } else if (name == "found_within") {
    scenario.found_within = field.integer(1);
  } else if (name == "description") {
    scenario.description = field.string();
  } else if (name == "params") {
    detail::check_params_section(document, entry);
  }
}

detail::TomlDocument parse_scenario(const ScenarioFile& scenario) {
  return detail::TomlDocument{scenario.text, scenario.path.string()};
}

}  // namespace

ScenarioFile read_scenario_file(const std::filesystem::path& path) {
  return parse_scenario_text(detail::read_text_file(path), path);
}

ScenarioFile parse_scenario_text(std::string text, const std::filesystem::path& path) {
  ScenarioFile scenario;
  scenario.path = path;
  scenario.text = std::move(text);
  const detail::TomlDocument document = parse_scenario(scenario);
  for (const detail::Entry& entry : detail::entries_in_source_order(document.root()))
    read_top_level_key(scenario, document, entry);
  // Check the config sections now, so a mistake shows before anything runs. The core limit
  // is checked against the defaults here and again against the real config when applied.
  Config scratch;
  detail::apply_config_document(scratch, document, scenario_top_level);
  if (scenario.kernel.empty())
    document.fail(toml::source_position{1, 1}, "kernel", "missing (the name of a registered kernel is required)");
  if (scenario.found_within && scenario.expect.value_or(model::Verdict::ok) == model::Verdict::ok)
    for (const detail::Entry& entry : detail::entries_in_source_order(document.root()))
      if (entry.key->str() == "found_within")
        document.fail(entry.key->source().begin, "found_within",
                      "needs an `expect` other than ok (the bug that only some schedules reach)");
  return scenario;
}

void apply_scenario_overrides(Config& config, const ScenarioFile& scenario) {
  const detail::TomlDocument document = parse_scenario(scenario);
  Config layered = config;
  detail::apply_config_document(layered, document, scenario_top_level);
  config = std::move(layered);
}

void apply_scenario_params(Params& params, const ScenarioFile& scenario) {
  const detail::TomlDocument document = parse_scenario(scenario);
  const auto section = document.root().find("params");
  if (section == document.root().end()) return;
  Params layered = params;
  detail::apply_params_section(layered, document, detail::Entry{&section->first, &section->second});
  params = std::move(layered);
}

}  // namespace weft::sim
