// The weft executable: weft's command line over its built-in scenarios, `weft bench`, the
// kernel libraries a command names (it exports its symbols to them: app/CMakeLists.txt), and
// Python scripts, which it hands to `python3 -m weft` (app/python_handoff.hpp).
#include "app/main.hpp"
#include "app/python_handoff.hpp"

int main(int argc, char** argv) { return weft::main(argc, argv, {}, weft::app::python_handoff(argc, argv)); }
