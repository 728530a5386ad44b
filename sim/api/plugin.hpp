#pragma once
// A kernel library: a shared library of scenarios that the stock `weft` loads at run time
// (`weft run my.toml --kernels ./libmykernels.so`, or `kernels = "..."` in the scenario file),
// so a kernel change is a rebuild of that library alone, in seconds, not of weft.
//
// One of the library's sources names its scenarios once, at namespace scope:
//
//   weft::sim::ScenarioRegistry my_scenarios() { return {my_ring(), my_pipeline()}; }
//   WEFT_PLUGIN(my_scenarios)
//
// which defines the one C entry point weft looks up, `weft_plugin`. It returns a WeftPlugin:
// the weft version the library was built against, then the function that hands its scenarios
// to weft. The version comes first and stays first in every version of this struct: weft reads
// it, and refuses a library built against a weft it is not compatible with (another
// MAJOR.MINOR, or a newer one: docs/kernel-api.md, "Versions"; exit 2, naming both versions)
// without asking it for anything else.
//
// Why a library built this way is safe to load (docs/kernel-api.md, "A kernel library"):
// - It holds none of weft's code. It is built with the CMake target weft::plugin (headers and
//   flags, no libraries), so its calls into weft (Core, Host, ...) resolve, when it is loaded,
//   to the one weft in the process: the stock executable exports its symbols and holds all of
//   the kernel API. One copy of weft means one fiber scheduler, one set of thread-locals and
//   one type_info per exception type, on both sides. (Linking weft's static libraries into the
//   library would make a second copy; they are not built position-independent, so the link
//   fails rather than load a second weft.)
// - Its kernels run on weft's fibers, and weft's teardown and the kernels' own exceptions
//   unwind through frames of both: both sides use the same C++ runtime (libstdc++ and
//   libgcc_s, linked dynamically: the compiler's default). A stack overflow or an endless spin
//   in its code is rescued as in a built-in kernel's (scheduler/fiber/kernel_code.hpp).
// - It is loaded afresh for each command and closed after the last use of its scenarios.
//   Nothing of it is kept in a global.

#include "sim/api/scenario.hpp"
#include "sim/api/version.hpp"

extern "C" {

// What `weft_plugin()` returns. Only weft_version is read before the version check.
struct WeftPlugin {
  const char* weft_version;               // WEFT_VERSION of the headers the library was built with
  void (*add_scenarios)(void* registry);  // appends the library's scenarios to a weft::sim::ScenarioRegistry
};

}  // extern "C"

namespace weft::sim {

// The one symbol weft looks up in a kernel library.
inline constexpr const char* plugin_entry_point = "weft_plugin";

// What WEFT_PLUGIN's add_scenarios does with the registry weft hands it.
inline void append_plugin_scenarios(void* registry, ScenarioRegistry scenarios) {
  auto& into = *static_cast<ScenarioRegistry*>(registry);
  for (auto& scenario : scenarios) into.push_back(std::move(scenario));
}

}  // namespace weft::sim

// Defines the library's entry point over `scenarios_function`, a function of no arguments that
// returns a weft::sim::ScenarioRegistry. Use it once per library.
#define WEFT_PLUGIN(scenarios_function)                                                                              \
  extern "C" __attribute__((visibility("default"))) const WeftPlugin* weft_plugin() {                                \
    static constexpr WeftPlugin plugin{                                                                              \
        WEFT_VERSION, [](void* registry) { ::weft::sim::append_plugin_scenarios(registry, scenarios_function()); }}; \
    return &plugin;                                                                                                  \
  }
