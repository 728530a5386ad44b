#pragma once
// weft: all a kernel author includes, installed as <weft/weft.hpp> (the CMake target weft::weft,
// or weft::plugin for a kernel library; `pkg-config weft`). It brings
//   - the kernel API: Core, Ref, Tile, Dma, Semaphore, Host, ScenarioDefinition (sim/api/);
//   - the Pallas-shaped launch: pallas_call with its grid, BlockSpecs and pipeline (sim/pallas/);
//   - WEFT_PLUGIN, the entry point of a kernel library the stock weft loads (sim/api/plugin.hpp);
//   - weft::main, the whole command line in a program of one's own (app/main.hpp);
//   - weft::testing, sweeps and explorations from a unit test (sim/testing/scenario_checks.hpp);
//   - Simulation (run_seed, run_schedule) and resolve_request, for executions one at a time, and
//     weft's built-in scenarios (scenarios/registry.hpp).
// docs/kernel-api.md has the API, the targets and the forms a kernel can take.

#include "app/main.hpp"
#include "scenarios/registry.hpp"
#include "sim/api/plugin.hpp"
#include "sim/api/scenario.hpp"
#include "sim/pallas/pallas_call.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/request/request.hpp"
#include "sim/testing/scenario_checks.hpp"
