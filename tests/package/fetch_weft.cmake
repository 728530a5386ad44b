# Included at the first project() of the example (CMAKE_PROJECT_TOP_LEVEL_INCLUDES): answers
# its find_package(weft) with FetchContent of the weft checkout WEFT_CHECKOUT, so the example
# gets weft as a project that fetches weft does: weft::weft and weft::plugin, and none of
# weft's tests, benchmarks or their dependencies.
include(FetchContent)

macro(weft_from_checkout method package)
  if("${package}" STREQUAL "weft")
    FetchContent_Declare(weft SOURCE_DIR ${WEFT_CHECKOUT})
    FetchContent_MakeAvailable(weft)
    set(weft_FOUND TRUE)
  endif()
endmacro()

cmake_language(SET_DEPENDENCY_PROVIDER weft_from_checkout SUPPORTED_METHODS FIND_PACKAGE)
