#pragma once
// The subcommands behind the CLI, each printing to stdout and returning the exit status.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/cli/request.hpp"

namespace weft::sim {

struct SeedRange {
  std::uint64_t first = 0;
  std::uint64_t last = 0;  // inclusive
};
// Parses "A..B" (both inclusive, A <= B); throws ConfigError naming the offending text.
SeedRange parse_seed_range(const std::string& text);

int command_list(const ScenarioRegistry& registry);
int command_run(const Request& request, const std::string& program, std::optional<std::uint64_t> seed);
int command_replay_schedule(const Request& request, const std::string& program, const std::string& schedule);
int command_sweep(const Request& request, const std::string& program, SeedRange seeds, bool keep_going);

}  // namespace weft::sim
