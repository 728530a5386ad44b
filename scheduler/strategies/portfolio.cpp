#include "scheduler/strategies/portfolio.hpp"

#include <array>

namespace weft::scheduler {
namespace {

constexpr std::array<PortfolioMember, 4> members{{
    {"random", 0},
    {"pct", 1},
    {"pct", 2},
    {"pct", 3},
}};

}  // namespace

std::span<const PortfolioMember> portfolio_members() { return members; }

const PortfolioMember& portfolio_member(std::uint64_t seed) { return members[seed % members.size()]; }

std::string to_string(const PortfolioMember& member) {
  if (member.strategy == "pct") return "pct (depth " + std::to_string(member.pct_depth) + ")";
  return std::string(member.strategy);
}

}  // namespace weft::scheduler
