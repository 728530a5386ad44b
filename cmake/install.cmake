# `cmake --install`: the weft executable, weft's static libraries, the public headers under
# include/weft/, the CMake package (find_package(weft 0.1 CONFIG): weft::weft, weft::plugin),
# a pkg-config file (weft.pc) and the docs with the example project.
include(CMakePackageConfigHelpers)

# Every library weft::weft links, each after the ones that use it (the order weft.pc lists).
set(weft_libraries weft_main weft_testing weft_bench_figures weft_scenarios weft_cli weft_explain weft_loader weft_trace
    weft_sweep weft_request weft_engine weft_pallas weft_api weft_ops weft_config weft_scheduler weft_fiber weft_model)
# weft_warnings rides along only because the static libraries name it (as link-only: its
# warning flags never reach a user's code).
install(TARGETS ${weft_libraries} weft_warnings weft_plugin_requirements weft_library EXPORT weftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS weft RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/weft DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(weft_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${weft_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/weftConfig.cmake.in ${PROJECT_BINARY_DIR}/weftConfig.cmake
                              INSTALL_DESTINATION ${weft_cmake_dir})
# A kernel library must be built against the weft that loads it, to the version; find_package
# accepts any 0.1.x for 0.1 (the loader then checks the exact version).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/weftConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/weftConfig.cmake ${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
        DESTINATION ${weft_cmake_dir})

# weft.pc finds its prefix from its own folder, so the package can be installed anywhere.
file(RELATIVE_PATH WEFT_PC_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
list(TRANSFORM weft_libraries PREPEND -l OUTPUT_VARIABLE WEFT_PC_LIBS)
list(JOIN WEFT_PC_LIBS " " WEFT_PC_LIBS)
configure_file(${CMAKE_CURRENT_LIST_DIR}/weft.pc.in ${PROJECT_BINARY_DIR}/weft.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/weft.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples/own-kernel DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The Python package, into the prefix's Python path as Debian's python3 reads it: /usr (the
# .deb) into lib/python3/dist-packages, the user's ~/.local into its site-packages, any other
# prefix into lib/python3.X/dist-packages (as /usr/local is). Decided at install time, when the
# prefix is known.
if(WEFT_PYTHON)
  install(CODE "
    set(weft_python_version ${WEFT_PYTHON_VERSION})
    if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
      set(weft_python_dir lib/python3/dist-packages)
    elseif(CMAKE_INSTALL_PREFIX STREQUAL \"\$ENV{HOME}/.local\")
      set(weft_python_dir lib/python\${weft_python_version}/site-packages)
    else()
      set(weft_python_dir lib/python\${weft_python_version}/dist-packages)
    endif()
    file(INSTALL ${PROJECT_BINARY_DIR}/python/weft DESTINATION \${CMAKE_INSTALL_PREFIX}/\${weft_python_dir}
         PATTERN __pycache__ EXCLUDE)
  ")
endif()
