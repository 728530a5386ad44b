#pragma once
// A short fingerprint of what a request runs, so that `weft merge` can tell the shards of one
// sweep from those of another: 16 hex digits of a 64-bit FNV-1a hash over the scenario's name,
// every configuration key that can change an execution, and the kernel's parameters, each
// written out as "key=value" in a fixed order. Two requests that resolve to the same
// configuration (through other files, or other --set values) have the same digest.
//
// Left out on purpose: scheduler.seed (a sweep names its own seeds) and
// scheduler.watchdog_seconds (a wall-clock limit that never changes a choice). A new
// configuration key belongs in config_digest.cpp.

#include <string>

#include "sim/request/request.hpp"

namespace weft::sim {

std::string config_digest(const Request& request);

}  // namespace weft::sim
