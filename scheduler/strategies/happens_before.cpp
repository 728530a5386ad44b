#include "scheduler/strategies/happens_before.hpp"

#include <algorithm>
#include <stdexcept>

#include "scheduler/strategies/touch_index.hpp"

namespace weft::scheduler {

namespace {

constexpr std::size_t none = TouchIndex::none;
constexpr std::uint32_t no_chain = static_cast<std::uint32_t>(-1);

// table[owner][k], grown with `fill` to hold it: cores and their DMAs are numbered densely
// (a DMA by its starter and how many that core had started before it).
template <class T>
T& entry(std::vector<std::vector<T>>& table, std::uint32_t owner, std::uint32_t k, T fill) {
  if (table.size() <= owner) table.resize(owner + 1);
  if (table[owner].size() <= k) table[owner].resize(k + 1, fill);
  return table[owner][k];
}

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

HappensBefore::HappensBefore(std::span<const Event> run, std::size_t ran) : chain_(run.size()), position_(run.size()) {
  const std::size_t length = run.size();
  // Each DMA's last transition: its lane may take another DMA after it.
  std::vector<std::vector<std::size_t>> dma_last;
  for (std::size_t j = 0; j < length; ++j)
    if (run[j].actor.kind != Actor::Kind::core) entry(dma_last, run[j].actor.owner, run[j].actor.sequence, none) = j;

  std::vector<std::vector<std::uint32_t>> core_chain, dma_chain;  // [core][0], [starter][sequence]
  std::vector<std::vector<std::size_t>> creator;  // [starter][k]: the transition that started its k-th DMA
  std::vector<std::size_t> latest;                // per chain: its latest transition so far
  std::vector<std::uint32_t> count;               // and how many it has had (the latest's position)
  std::vector<std::size_t> busy_until;            // per chain: its DMA's last transition (none: a core's)
  std::vector<std::uint32_t> lanes;               // the chains of DMAs, in order
  std::vector<std::uint32_t> clock;               // e_j's clock while it is made
  std::vector<std::size_t> direct, dependents, found;
  TouchIndex touched(position_);
  rows_.reserve(length + 1);
  rows_.push_back(0);
  races_start_.reserve(length + 1);
  races_start_.push_back(0);
  const auto new_chain = [&](std::size_t until) {
    latest.push_back(none);
    count.push_back(0);
    busy_until.push_back(until);
    return static_cast<std::uint32_t>(chains_++);
  };

  for (std::size_t j = 0; j < length; ++j) {
    if (j + read_ahead_events < length) read_ahead(run[j + read_ahead_events]);
    const Event& event = run[j];
    const StableActor actor = event.actor;
    const bool core = actor.kind == Actor::Kind::core;
    std::uint32_t& own =
        core ? entry(core_chain, actor.owner, 0, no_chain) : entry(dma_chain, actor.owner, actor.sequence, no_chain);
    if (core && own == no_chain) own = new_chain(none);
    std::uint32_t me = own;  // no_chain: a DMA's first phase, whose lane is chosen below
    clock.assign(chains_ + 1, 0);
    const auto join = [&](std::size_t i) {
      for (std::size_t p = rows_[i]; p < rows_[i + 1]; ++p)
        clock[p - rows_[i]] = std::max(clock[p - rows_[i]], clock_[p]);
    };
    direct.clear();
    dependents.clear();
    if (me != no_chain && latest[me] != none) direct.push_back(latest[me]);  // program order
    if (me == no_chain && actor.owner < creator.size() && actor.sequence < creator[actor.owner].size())
      direct.push_back(creator[actor.owner][actor.sequence]);
    for (std::size_t i : direct) join(i);
    // For each other chain, its latest transition dependent with e_j among those not yet known
    // to happen before it (touch_index.hpp). The creator is ordered before the DMA by creation,
    // whatever else they touch (a start that is also its core's exit adds to the running cores
    // the phase observes): never a race, and its chain is already known up to it. Transitions
    // left at the end are not filed: they are ordered after those that ran, never after each other.
    found.assign(chains_, none);
    touched.latest_dependent(event.footprint, me, clock, found);
    for (std::size_t i : found)
      if (i != none) dependents.push_back(i);
    std::sort(dependents.begin(), dependents.end());
    for (std::size_t i : dependents) join(i);
    direct.insert(direct.end(), dependents.begin(), dependents.end());
    for (std::size_t i : dependents)
      if (std::none_of(direct.begin(), direct.end(), [&](std::size_t k) { return k != i && before(i, k); }))
        races_.push_back(i);
    races_start_.push_back(races_.size());

    if (me == no_chain) {
      // A DMA's first phase: the first lane whose DMA is over and whose latest transition
      // happens before this one, else a new lane. A left one makes a lane of its own.
      for (const std::uint32_t lane : lanes)
        if (j < ran && busy_until[lane] < j && clock[lane] >= count[lane]) {
          me = lane;
          break;
        }
      if (me == no_chain) lanes.push_back(me = new_chain(none));
      busy_until[me] = dma_last[actor.owner][actor.sequence];
      own = me;
    }
    chain_[j] = me;
    position_[j] = ++count[me];
    latest[me] = j;
    clock[me] = position_[j];
    if (clock_.size() + chains_ > clock_.capacity())  // rows as wide as this one, one wider, to the run's end:
      clock_.reserve(clock_.size() + (length - j) * (chains_ + 1));  // a few growths early, not a doubling each
    clock_.insert(clock_.end(), clock.begin(), clock.begin() + static_cast<std::ptrdiff_t>(chains_));
    rows_.push_back(clock_.size());
    if (j < ran) touched.file(j, me, event.footprint);
    if (event.footprint.creates && core) {
      if (creator.size() <= actor.owner) creator.resize(actor.owner + 1);
      creator[actor.owner].push_back(j);
    }
  }
  index_chains();
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

}  // namespace weft::scheduler
