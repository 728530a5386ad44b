// The weft executable: weft's command line over its built-in scenarios, `weft bench`, and the
// kernel libraries a command names (it exports its symbols to them: app/CMakeLists.txt).
#include "app/main.hpp"

int main(int argc, char** argv) { return weft::main(argc, argv); }
