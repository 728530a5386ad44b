#pragma once
// Internal to weft_config (includes toml++). The config schema: the sections [topology],
// [memory], [dma], [race_detection], [scheduler] and [compat], their keys, types and ranges.
// See docs/configuration.md for the user's view of the same rules.

#include <span>
#include <string_view>

#include "sim/config/config.hpp"
#include "sim/config/toml_document.hpp"
#include "sim/config/toml_field.hpp"

namespace weft::sim::detail {

// Top-level names a document may hold besides the config sections, which the caller reads
// itself (a scenario file's `kernel` and `[params]`, --set's `params`).
struct OtherTopLevel {
  std::span<const std::string_view> keys;
  std::span<const std::string_view> sections;
  // Names that belong in another kind of document, and where (a config file's message for
  // `kernel`: "belongs in a scenario file").
  std::span<const std::string_view> misplaced = {};
  std::string_view misplaced_where = {};
};

// The config section names, in documentation order.
std::span<const std::string_view> config_section_names();

// Applies every config section of `document` to `config`, validating each key, and the total
// core count once the document is applied. Any other top-level name is an error unless
// `others` lists it. On error `config` may be half changed: callers apply to a copy.
void apply_config_document(Config& config, const TomlDocument& document, const OtherTopLevel& others);

// One key of a section and how it changes the config (after checking the value).
struct KeyRule {
  std::string_view name;
  void (*apply)(Config& config, const Field& field);
};

// Applies each key of `table` (section `section`) by its rule; an unknown key is an error
// that lists the known ones.
void apply_rules(Config& config, const TomlDocument& document, std::string_view section, const toml::table& table,
                 std::span<const KeyRule> rules);

// [topology] (topology_section.cpp): devices or mesh, cores_per_device, and the core limit.
void apply_topology_section(Config& config, const TomlDocument& document, const toml::table& table);

}  // namespace weft::sim::detail
