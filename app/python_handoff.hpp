#pragma once
// The stock executable runs no Python itself: a command that names a Python script (`weft
// sweep kernels.py::ring`, or a scenario file whose `kernels` key is a `.py`) is handed, whole
// and unchanged, to `python3 -m weft` (the Python package's CLI, the same command line over the
// same engine), which replaces this process: same pid, standard streams, signals and exit status.
//
// The package is looked for beside this executable, where the build and the installs put it:
// `<dir>/python` (the build tree), `<dir>/../lib/python3/dist-packages` (a .deb, prefix /usr),
// `<dir>/../lib/python3.X/site-packages` and `.../dist-packages` (other prefixes); the first
// found goes first on PYTHONPATH. The interpreter is the one the package was built for.
// WEFT_PROGRAM carries this program's name, which the reproduce lines it prints then name.

#include "sim/plugin/catalog.hpp"

namespace weft::app {

// A loader that never returns: it execs the interpreter with `argv`, or throws ConfigError
// naming the script when there is no package or interpreter to hand it to.
sim::ScriptLoader python_handoff(int argc, char** argv);

}  // namespace weft::app
