#pragma once
// The one rule of version compatibility, for the kernel-library loader and the CMake package
// (cmake/install.cmake writes weftConfigVersion.cmake with COMPATIBILITY SameMinorVersion):
// what was built against weft A (a kernel library: its WeftPlugin::weft_version; a project:
// find_package(weft A)) works with weft B when A and B have the same MAJOR.MINOR and A is not
// newer than B. Within a MAJOR.MINOR, a patch release keeps the kernel API's ABI (the public
// headers' types, signatures and inline code) and may only add to it, so a library built against
// 0.1 loads in weft 0.1.3, and one built against 0.1.3 (which may call what 0.1.3 added) does not
// load in weft 0.1. docs/kernel-api.md, "Versions".

#include <string_view>

namespace weft::sim {

// A version is MAJOR.MINOR, optionally .PATCH and .TWEAK, each a decimal number (missing
// components are 0). False when either text is not one.
bool works_with(std::string_view built_against, std::string_view running);

}  // namespace weft::sim
