#pragma once
// The portfolio: each seed of a sweep goes to one member strategy, in turn.
//
// Why. No single randomized strategy finds every bug soonest. A uniform random walk
// (random.hpp) finds races between steps that any interleaving may bring close together; PCT
// (pct.hpp) finds ordering bugs that need one actor to stay ahead for long stretches, the
// deeper the bug the larger the depth it needs, and each extra depth costs a factor of the run's
// length in its bound. Measured on weft's buggy scenarios (docs/sweeping.md), the best strategy
// differs from scenario to scenario by up to two orders of magnitude in failures per 1,000
// seeds. Spreading seeds over the strategies costs at most a constant factor against the best
// one of each scenario, and never leaves a bug to a strategy that cannot find it: the idea of
// algorithm portfolios (C. P. Gomes, B. Selman, "Algorithm portfolios", Artificial
// Intelligence 126, 2001).
//
// How. Seed s runs member s mod (number of members), seeded with s itself, so a portfolio seed
// is exactly the member's own run of that seed: `--strategy pct --set scheduler.pct_depth=3
// --seed s` replays the same schedule as `--strategy portfolio --seed s` when that member is PCT
// of depth 3. Contiguous seed ranges (every sweep, every shard of one) give each member an
// equal share.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace weft::scheduler {

struct PortfolioMember {
  std::string_view strategy;  // a registered strategy's name
  int pct_depth = 0;          // for pct
};

std::span<const PortfolioMember> portfolio_members();
// The member that runs seed `seed`.
const PortfolioMember& portfolio_member(std::uint64_t seed);
// "random", "pct (depth 3)": for reports.
std::string to_string(const PortfolioMember& member);

}  // namespace weft::scheduler
