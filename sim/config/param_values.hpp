#pragma once
// Internal to weft_config (includes toml++). A kernel's [params] table, from a scenario file or
// from --set params.NAME=VALUE: values of the kinds of sim/config/params.hpp.

#include "sim/config/params.hpp"
#include "sim/config/toml_document.hpp"
#include "sim/config/toml_field.hpp"

namespace weft::sim::detail {

// Checks the types only (the kernel, and so the known names, is not known yet).
void check_params_section(const TomlDocument& document, const Entry& section);

// Sets each parameter named in `section`; every name must already be in `params` (which holds
// the kernel's parameters with their defaults), otherwise the error lists the known names.
void apply_params_section(Params& params, const TomlDocument& document, const Entry& section);

}  // namespace weft::sim::detail
