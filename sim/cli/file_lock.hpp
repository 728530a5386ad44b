#pragma once
// Whether another process holds an flock(2) on a file: a running sweep locks its F.partial for
// as long as it writes it (whole_output.hpp), so a held lock means that sweep is still running.

#include <string>

namespace weft::sim {

// True when the file exists and another open file description holds a lock on it that a shared
// lock conflicts with (an exclusive one). Takes no lock of its own beyond the probe.
bool locked_by_another(const std::string& path);

}  // namespace weft::sim
