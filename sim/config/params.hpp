#pragma once
// A kernel's named integer parameters (rows, cols, ...), filled from the kernel's defaults,
// then a scenario's [params], then --set params.NAME=VALUE.

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace weft::sim {

using Params = std::map<std::string, std::int64_t, std::less<>>;

}  // namespace weft::sim
