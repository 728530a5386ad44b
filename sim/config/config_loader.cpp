#include "sim/config/config_loader.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "sim/config/config_schema.hpp"
#include "sim/config/text_file.hpp"
#include "sim/config/toml_document.hpp"

namespace weft::sim {
namespace {

// A scenario file's own names, which a config file may not hold.
constexpr std::array<std::string_view, 5> scenario_names{"kernel", "config", "expect", "description", "params"};
constexpr detail::OtherTopLevel config_file_top_level{{}, {}, scenario_names, "a scenario file"};

}  // namespace

void apply_config_text(Config& config, std::string_view toml_text, const std::string& source_name) {
  const detail::TomlDocument document{toml_text, source_name};
  Config layered = config;
  detail::apply_config_document(layered, document, config_file_top_level);
  config = std::move(layered);
}

void apply_config_file(Config& config, const std::filesystem::path& path) {
  const std::string text = detail::read_text_file(path);
  const detail::TomlDocument document{text, path.string()};
  if (document.root().empty())
    throw ConfigError(path.string(), 1, 1, "",
                      "the file holds no settings (it is empty, or only comments); give at least one section");
  Config layered = config;
  detail::apply_config_document(layered, document, config_file_top_level);
  config = std::move(layered);
}

Config default_config() {
  Config config;
  apply_config_text(config, embedded_default_config(), std::string{embedded_default_source});
  return config;
}

}  // namespace weft::sim
