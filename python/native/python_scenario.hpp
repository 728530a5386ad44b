#pragma once
// Scenarios written in Python (weft/_script.py reads a script into ScenarioSpecs), made into
// ScenarioDefinitions the engine runs like any other. An execution of one:
//   setup  starts the scenario's host code on a greenlet of its own (weft/_host.py), which runs
//          until its launch; the launch's inputs are written into hbm, its outputs allocated;
//   kernel each core runs the launch through sim/pallas (grid, BlockSpecs, pipeline), calling
//          the Python kernel at each grid point with its refs, on the core's fiber (python_fiber.hpp);
//   check  the outputs are read back and handed to the host code, which goes on from its
//          launch: returning is `ok`, an AssertionError a wrong_result with its message.
// The host code's greenlet lives from setup to check, one per thread that runs executions
// (a sweep's jobs), so setup runs at every execution (setup_every_execution).
//
// Every entry into Python holds the GIL (a command's threads take turns); the objects the
// definitions hold are released under it.

#include <filesystem>
#include <string>

#include "sim/api/scenario.hpp"

namespace weft::python {

// The scenarios of the script at `path` (throws ConfigError naming it when it cannot be read).
// `package_folder` is the weft package's folder: frames in it are not the kernel's lines.
sim::ScenarioRegistry load_script(const std::filesystem::path& path, const std::string& package_folder);

}  // namespace weft::python
