#pragma once
// The name of a file weft keeps beside an output while it writes it (F.partial, F.tmpPID, the
// JUnit report's scratch file): `target` + `suffix` when that name fits in a file name
// (NAME_MAX, 255 bytes), else a shorter one in the same folder, ".weft-" + a digest (64-bit
// FNV-1a, in hex) of the target's name + `suffix`, so that an output whose own name is legal
// (up to 255 bytes) is never refused for weft's suffix.

#include <string>

namespace weft::sim {

std::string aside_name(const std::string& target, const std::string& suffix);

}  // namespace weft::sim
