# What a user of weft builds against, the same whether weft is installed (find_package) or
# part of their build (add_subdirectory, FetchContent):
#   weft::plugin  a kernel library's usage requirements: weft's public headers (<weft/...>),
#                 C++20, Eigen and Boost headers, and the stack probes a kernel needs (a
#                 stack overflow must land in its fiber's guard page: docs/hardening.md). No
#                 libraries: a kernel library's calls into weft resolve to the weft that
#                 loads it (sim/api/plugin.hpp).
#   weft::weft    weft::plugin and weft's libraries: for a program (weft::main) or a unit
#                 test (weft::testing) with kernels linked in.

# The public headers: the umbrella app/weft.hpp and its closure, copied under
# build/include/weft/ with their includes prefixed (generate_public_headers.cmake).
file(GLOB_RECURSE weft_header_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/app/*.hpp ${PROJECT_SOURCE_DIR}/bench/*.hpp ${PROJECT_SOURCE_DIR}/model/*.hpp
  ${PROJECT_SOURCE_DIR}/scenarios/*.hpp ${PROJECT_SOURCE_DIR}/scheduler/*.hpp ${PROJECT_SOURCE_DIR}/sim/*.hpp)
set(weft_public_headers_stamp ${PROJECT_BINARY_DIR}/public_headers.stamp)
add_custom_command(OUTPUT ${weft_public_headers_stamp}
  COMMAND ${CMAKE_COMMAND} -DWEFT_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DWEFT_GENERATED_DIR=${PROJECT_BINARY_DIR}/generated
          -DWEFT_INCLUDE_DIR=${PROJECT_BINARY_DIR}/include -DWEFT_UMBRELLA=app/weft.hpp -DWEFT_STAMP=${weft_public_headers_stamp}
          -P ${CMAKE_CURRENT_LIST_DIR}/generate_public_headers.cmake
  DEPENDS ${weft_header_sources} ${PROJECT_BINARY_DIR}/generated/sim/api/version.hpp
          ${CMAKE_CURRENT_LIST_DIR}/generate_public_headers.cmake
  COMMENT "Writing weft's public headers under ${PROJECT_BINARY_DIR}/include/weft")
add_custom_target(weft_public_headers ALL DEPENDS ${weft_public_headers_stamp})

include(GNUInstallDirs)
add_library(weft_plugin_requirements INTERFACE)
set_target_properties(weft_plugin_requirements PROPERTIES EXPORT_NAME plugin)
target_include_directories(weft_plugin_requirements INTERFACE
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(weft_plugin_requirements INTERFACE cxx_std_20)
target_compile_options(weft_plugin_requirements INTERFACE -fstack-clash-protection)
target_link_libraries(weft_plugin_requirements INTERFACE Eigen3::Eigen Boost::headers)
add_dependencies(weft_plugin_requirements weft_public_headers)
add_library(weft::plugin ALIAS weft_plugin_requirements)

add_library(weft_library INTERFACE)
set_target_properties(weft_library PROPERTIES EXPORT_NAME weft)
target_link_libraries(weft_library INTERFACE weft_plugin_requirements weft_main weft_testing)
add_library(weft::weft ALIAS weft_library)
