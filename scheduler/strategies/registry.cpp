#include "scheduler/strategies/registry.hpp"

#include <array>
#include <stdexcept>

#include "scheduler/strategies/pct.hpp"
#include "scheduler/strategies/portfolio.hpp"
#include "scheduler/strategies/random.hpp"

namespace weft::scheduler {
namespace {

std::unique_ptr<Strategy> make_portfolio(const StrategySettings& settings, std::uint64_t seed);

constexpr std::array<StrategyEntry, 3> entries{{
    {"random", "uniform over the enabled actors at every step",
     [](const StrategySettings&, std::uint64_t seed) -> std::unique_ptr<Strategy> {
       return std::make_unique<RandomStrategy>(seed);
     }},
    {"pct", "probabilistic concurrency testing: random priorities, pct_depth - 1 change points",
     [](const StrategySettings& settings, std::uint64_t seed) -> std::unique_ptr<Strategy> {
       return std::make_unique<PctStrategy>(seed, settings.pct_depth,
                                            settings.steps_estimate ? settings.steps_estimate() : 0);
     }},
    {"portfolio", "each seed to one of random and pct at depths 1, 2, 3, in turn (seed mod 4)", make_portfolio},
}};

std::unique_ptr<Strategy> make_portfolio(const StrategySettings& settings, std::uint64_t seed) {
  const PortfolioMember& member = portfolio_member(seed);
  StrategySettings chosen = settings;
  chosen.name = std::string(member.strategy);
  if (member.pct_depth > 0) chosen.pct_depth = member.pct_depth;
  return make_strategy(chosen, seed);
}

constexpr std::array<std::string_view, entries.size()> names = [] {
  std::array<std::string_view, entries.size()> list{};
  for (std::size_t i = 0; i < entries.size(); ++i) list[i] = entries[i].name;
  return list;
}();

}  // namespace

std::span<const StrategyEntry> strategy_entries() { return entries; }
std::span<const std::string_view> strategy_names() { return names; }

std::unique_ptr<Strategy> make_strategy(const StrategySettings& settings, std::uint64_t seed) {
  for (const StrategyEntry& entry : entries)
    if (entry.name == settings.name) return entry.make(settings, seed);
  throw std::invalid_argument("no strategy named '" + settings.name + "'");
}

}  // namespace weft::scheduler
