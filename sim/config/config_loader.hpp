#pragma once
// Loading configuration layers onto a Config: the embedded default, a config file, or any TOML
// text. Each layer changes only the keys it names; a later layer wins. Every mistake is a
// ConfigError naming source, line, column and key (docs/configuration.md).

#include <filesystem>
#include <string>
#include <string_view>

#include "sim/config/config.hpp"
#include "sim/config/config_error.hpp"
#include "sim/config/embedded_default.hpp"

namespace weft::sim {

// Applies the config sections of `toml_text` to `config`. On a ConfigError, `config` is left
// as it was.
void apply_config_text(Config& config, std::string_view toml_text, const std::string& source_name);

// The same for a file; an unreadable file is a ConfigError at line 0, column 0.
void apply_config_file(Config& config, const std::filesystem::path& path);

// The built-in defaults with the embedded configs/default.toml applied on top.
Config default_config();

}  // namespace weft::sim
