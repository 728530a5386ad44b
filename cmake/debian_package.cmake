# `cpack -G DEB` (in the build folder, after the build): weft_<version>_<arch>.deb, installing
# what `cmake --install` does under /usr. It depends on Debian's packages by name: the shared
# libraries the executable links (found by dpkg-shlibdeps) and the -dev packages weft's CMake
# package and headers need.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VENDOR weft)
set(CPACK_PACKAGE_CONTACT "weft developers <weft@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "deterministic simulator of kernels on many cores of TPU-like devices")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libboost-context-dev (>= 1.74), libboost-fiber-dev (>= 1.74), libeigen3-dev, libtomlplusplus-dev, libcli11-dev, nlohmann-json3-dev")
if(WEFT_PYTHON)  # the Python package (python/), in /usr/lib/python3/dist-packages
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", python3 (>= ${WEFT_PYTHON_VERSION}), python3-numpy, python3-greenlet")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, cmake, pkg-config")
include(CPack)
