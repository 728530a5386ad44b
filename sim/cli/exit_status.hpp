#pragma once
// The exit status of a command that stopped before it did all it was asked, and found no
// failure in what it did: a sweep, or a merge of sweeps, before every planned seed ran
// (sweep_command.hpp, merge.hpp); an exploration before its space was run (explore_command.hpp).
// With a failure found, such a command exits 1 like a complete one.

namespace weft::sim {

inline constexpr int exit_incomplete = 4;

}  // namespace weft::sim
