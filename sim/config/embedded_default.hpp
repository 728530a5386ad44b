#pragma once
// configs/default.toml, compiled into the library (the build regenerates it when the file
// changes). A run with no config file starts from it.

#include <string_view>

namespace weft::sim {

// The source name errors in the embedded default are reported under.
inline constexpr std::string_view embedded_default_source = "<embedded default>";

std::string_view embedded_default_config();

}  // namespace weft::sim
