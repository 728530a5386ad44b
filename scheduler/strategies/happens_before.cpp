#include "scheduler/strategies/happens_before.hpp"

#include <algorithm>
#include <stdexcept>

#include "scheduler/strategies/growing_order.hpp"
#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {

namespace {

// The first of [from, last) for which `holds` fails (it holds on a prefix, fails on the rest),
// searched outward from `from`: probes 1, 2, 4, ... ahead, then a bisection of the last stride.
// Costs the logarithm of the answer's distance from `from`, and its first probes read entries
// near `from`, where a bisection of the whole range reads entries far apart (a cache miss each).
template <class Iterator, class Holds>
Iterator partition_point_near(Iterator from, Iterator last, Holds holds) {
  std::ptrdiff_t stride = 1;
  while (last - from > stride) {
    const Iterator probe = from + (stride - 1);
    if (!holds(*probe)) return std::partition_point(from, probe, holds);
    from = probe + 1;
    stride *= 2;
  }
  return std::partition_point(from, last, holds);
}

}  // namespace

HappensBefore::HappensBefore(std::span<const Event> run, std::size_t ran) {
  GrowingOrder growing;
  growing.grow(run, ran, 0);
  *this = std::move(growing.order_);
}

void HappensBefore::index_chains() {
  chain_start_.assign(chains_ + 1, 0);
  for (const std::uint32_t chain : chain_) ++chain_start_[chain + 1];
  for (std::size_t c = 0; c < chains_; ++c) chain_start_[c + 1] += chain_start_[c];
  by_chain_.resize(chain_.size());
  std::vector<std::size_t> next(chain_start_.begin(), chain_start_.end() - 1);
  for (std::size_t k = 0; k < chain_.size(); ++k) by_chain_[next[chain_[k]]++] = k;
}

void HappensBefore::not_after(std::size_t i, std::size_t end, std::vector<std::size_t>& out) const {
  const std::size_t first = out.size();
  for (std::size_t c = 0; c < chains_; ++c) {
    const auto chain_begin = by_chain_.begin() + static_cast<std::ptrdiff_t>(chain_start_[c]);
    const auto chain_end = by_chain_.begin() + static_cast<std::ptrdiff_t>(chain_start_[c + 1]);
    const auto from = std::upper_bound(chain_begin, chain_end, i);
    // The chain's transitions after e_i: those before `end` that e_i does not happen before,
    // then the rest (happens-before grows along a chain, and so does the run's order).
    const auto to = partition_point_near(from, chain_end, [&](std::size_t k) { return k < end && !before(i, k); });
    out.insert(out.end(), from, to);
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

HappensBefore::HappensBefore(Clocks clocks)
    : chain_(std::move(clocks.chain)),
      position_(std::move(clocks.position)),
      clock_(std::move(clocks.clock)),
      rows_(std::move(clocks.rows)),
      races_start_(position_.size() + 1, 0) {
  const std::size_t length = position_.size();
  if (chain_.size() != length || rows_.size() != length + 1 || rows_.front() != 0 || rows_.back() != clock_.size() ||
      !std::is_sorted(rows_.begin(), rows_.end()))
    throw std::logic_error("happens-before: clocks that are not a run's");
  for (const std::uint32_t chain : chain_) chains_ = std::max<std::size_t>(chains_, std::size_t{chain} + 1);
  index_chains();
}

std::size_t HappensBefore::memory_bytes() const {
  return held_bytes(chain_) + held_bytes(position_) + held_bytes(clock_) + held_bytes(rows_) + held_bytes(races_) +
         held_bytes(races_start_) + held_bytes(by_chain_) + held_bytes(chain_start_);
}

}  // namespace weft::scheduler
