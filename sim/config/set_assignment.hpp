#pragma once
// --set "dotted.key=value": the command line's layer, on top of config and scenario files.
//
//   --set topology.devices=2          a config key (the schema of docs/configuration.md)
//   --set dma.execution=eager         a bare word is taken as a string
//   --set topology.mesh=[2,4]         otherwise the value is TOML syntax
//   --set params.rows=16              a kernel parameter
//
// Errors name the source "--set", line 1 and the column inside the argument.

#include <string_view>

#include "sim/config/config.hpp"
#include "sim/config/config_error.hpp"
#include "sim/config/params.hpp"

namespace weft::sim {

// The source name of errors in --set arguments.
inline constexpr std::string_view set_source = "--set";

// Applies one assignment to `config` or (params.NAME) to `params`, which must already hold
// every parameter the kernel knows. Both are left as they were on error.
void apply_set(Config& config, Params& params, std::string_view assignment);

}  // namespace weft::sim
