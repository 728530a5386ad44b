#pragma once
// weft's command line: `list`, `run`, `replay` and `sweep`. Users with their own kernels link the
// weft libraries, build a registry (the built-in one plus theirs) and hand argc/argv here.
//
// Exit status: 0 every execution gave the expected verdict; 1 some did not; 2 usage or
// configuration error; 3 internal error.

#include "sim/scenario.hpp"

namespace weft::sim {

int run_cli(int argc, char** argv, const ScenarioRegistry& registry);

}  // namespace weft::sim
