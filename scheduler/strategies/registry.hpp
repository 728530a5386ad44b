#pragma once
// The seeded strategies, by name: the one place a strategy is registered. The configuration
// (`[scheduler] strategy`, `--strategy`) names one; `make_strategy` builds it for a seed. A
// strategy is one file of this folder plus its line in registry.cpp.
//
// (The replay strategies and the explorer are not seeded: the replay command and `explore`
// build them directly.)

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "scheduler/strategy.hpp"

namespace weft::scheduler {

struct StrategySettings {
  std::string name = "random";
  int pct_depth = 3;
  // PCT's k, the expected number of steps of a run: asked only by the strategies that need it
  // (measuring it costs an execution).
  std::function<std::uint64_t()> steps_estimate;
};

struct StrategyEntry {
  std::string_view name;
  std::string_view summary;  // one line, for the docs and --help
  std::unique_ptr<Strategy> (*make)(const StrategySettings& settings, std::uint64_t seed);
};

// Every registered strategy, in a fixed order.
std::span<const StrategyEntry> strategy_entries();
// The registered names, for a configuration's list of allowed values.
std::span<const std::string_view> strategy_names();
// The strategy `settings.name` names, seeded; throws std::invalid_argument for an unknown name
// (the configuration checks names before this is reached).
std::unique_ptr<Strategy> make_strategy(const StrategySettings& settings, std::uint64_t seed);

}  // namespace weft::scheduler
