# Compiles what a user of weft compiles, with the warnings a user's build may turn on, as errors
# (-Wall -Wextra -Wpedantic -Werror): every public header (documented_idioms.cpp includes
# <weft/weft.hpp>, whose closure they are), the idioms the docs show (designated initialisers:
# `{.device = d}` warned under -Wmissing-field-initializers), and the example kernel with its unit
# test (examples/own-kernel). Syntax only: nothing is linked or run.
# Inputs (-D): CXX, INCLUDE (weft's public include folder), SYSTEM_INCLUDES ('|' between
# folders: Eigen, Boost, Catch2, as their CMake targets give them), IMPLICIT_INCLUDES (the
# compiler's own folders, left out of SYSTEM_INCLUDES as CMake leaves them out), SOURCE_DIR.
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" system_includes "${SYSTEM_INCLUDES}")
string(REPLACE "|" ";" implicit_includes "${IMPLICIT_INCLUDES}")
list(REMOVE_DUPLICATES system_includes)
list(REMOVE_ITEM system_includes ${implicit_includes})
set(flags -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I${INCLUDE})
foreach(folder IN LISTS system_includes)
  list(APPEND flags -isystem ${folder})
endforeach()
foreach(source tests/headers/documented_idioms.cpp examples/own-kernel/neighbour_shift.cpp
               examples/own-kernel/neighbour_shift_test.cpp)
  execute_process(COMMAND ${CXX} ${flags} -DSCENARIO_FILE="unused" ${SOURCE_DIR}/${source}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${source} does not compile warning-free under ${flags}:\n${output}")
  endif()
endforeach()
