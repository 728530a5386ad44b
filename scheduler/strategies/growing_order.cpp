#include "scheduler/strategies/growing_order.hpp"

#include <algorithm>

#include "scheduler/strategies/held_bytes.hpp"

namespace weft::scheduler {
namespace {

// table[owner][k], grown with `fill` to hold it: cores and their DMAs are numbered densely
// (a DMA by its starter and how many that core had started before it).
template <class T>
T& entry(std::vector<std::vector<T>>& table, std::uint32_t owner, std::uint32_t k, T fill) {
  if (table.size() <= owner) table.resize(owner + 1);
  if (table[owner].size() <= k) table[owner].resize(k + 1, fill);
  return table[owner][k];
}

template <class T>
T at_or(const std::vector<std::vector<T>>& table, std::size_t owner, std::size_t k, T fill) {
  return owner < table.size() && k < table[owner].size() ? table[owner][k] : fill;
}

// Every entry set back to `fill`, the tables' storage kept.
template <class T>
void refill(std::vector<std::vector<T>>& table, T fill) {
  for (std::vector<T>& row : table) std::fill(row.begin(), row.end(), fill);
}

}  // namespace

GrowingOrder::GrowingOrder() {
  order_.rows_.push_back(0);
  order_.races_start_.push_back(0);
}

const HappensBefore& GrowingOrder::grow(std::span<const Event> run, std::size_t ran, std::size_t kept) {
  const std::size_t length = run.size();
  // Each run's last transition touches the run's end (race_analysis.hpp): it is never kept.
  kept = std::min({kept, ran > 0 ? ran - 1 : 0, previous_ran_ > 0 ? previous_ran_ - 1 : 0, order_.chain_.size()});
  std::swap(dma_last_, previous_dma_last_);
  refill(dma_last_, none);
  for (std::size_t j = 0; j < length; ++j)
    if (run[j].actor.kind != Actor::Kind::core) entry(dma_last_, run[j].actor.owner, run[j].actor.sequence, none) = j;
  if (kept > 0 && !lanes_stand(kept)) kept = 0;

  cut_back(run, kept);
  order_.chain_.resize(length);
  order_.position_.resize(length);
  order_.rows_.reserve(length + 1);
  order_.races_start_.reserve(length + 1);
  for (std::size_t j = kept; j < length; ++j) order_next(run, ran, j);
  order_.index_chains();
  previous_ran_ = ran;
  reused_ = kept;
  return order_;
}

bool GrowingOrder::lanes_stand(std::size_t kept) const {
  // Whether each DMA ran its last transition before `kept` in both runs or in neither (none is
  // past every index).
  const std::size_t owners = std::max(dma_last_.size(), previous_dma_last_.size());
  for (std::size_t owner = 0; owner < owners; ++owner) {
    const std::size_t dmas = std::max(owner < dma_last_.size() ? dma_last_[owner].size() : 0,
                                      owner < previous_dma_last_.size() ? previous_dma_last_[owner].size() : 0);
    for (std::size_t k = 0; k < dmas; ++k)
      if ((at_or(dma_last_, owner, k, none) < kept) != (at_or(previous_dma_last_, owner, k, none) < kept)) return false;
  }
  return true;
}

void GrowingOrder::cut_back(std::span<const Event> run, std::size_t kept) {
  HappensBefore& order = order_;
  const std::size_t chains = kept > 0 ? order.rows_[kept] - order.rows_[kept - 1] : 0;  // e_(kept-1)'s row is as wide
  order.chain_.resize(kept);
  order.position_.resize(kept);
  order.clock_.resize(order.rows_[kept]);
  order.rows_.resize(kept + 1);
  order.races_.resize(order.races_start_[kept]);
  order.races_start_.resize(kept + 1);
  order.chains_ = chains;
  touched_.truncate(kept);

  // Each chain's latest kept transition, each process's chain and each DMA's creator, from the
  // kept events; a lane's DMA is its latest transition's, busy until that DMA's last in this run.
  latest_.assign(chains, none);
  count_.assign(chains, 0);
  busy_until_.assign(chains, none);
  lanes_.erase(std::find_if(lanes_.begin(), lanes_.end(), [&](std::uint32_t lane) { return lane >= chains; }),
               lanes_.end());
  refill(core_chain_, no_chain);
  refill(dma_chain_, no_chain);
  for (std::vector<std::size_t>& made : creator_) made.clear();
  for (std::size_t j = 0; j < kept; ++j) {
    const StableActor actor = run[j].actor;
    const std::uint32_t chain = order.chain_[j];
    latest_[chain] = j;
    count_[chain] = order.position_[j];
    if (actor.kind == Actor::Kind::core) {
      entry(core_chain_, actor.owner, 0, no_chain) = chain;
      if (run[j].footprint.creates) {
        if (creator_.size() <= actor.owner) creator_.resize(actor.owner + 1);
        creator_[actor.owner].push_back(j);
      }
    } else {
      entry(dma_chain_, actor.owner, actor.sequence, no_chain) = chain;
    }
  }
  for (const std::uint32_t lane : lanes_) {
    const StableActor dma = run[latest_[lane]].actor;
    busy_until_[lane] = dma_last_[dma.owner][dma.sequence];
  }
}

std::uint32_t GrowingOrder::new_chain() {
  latest_.push_back(none);
  count_.push_back(0);
  busy_until_.push_back(none);
  return static_cast<std::uint32_t>(order_.chains_++);
}

void GrowingOrder::order_next(std::span<const Event> run, std::size_t ran, std::size_t j) {
  HappensBefore& order = order_;
  const std::size_t length = run.size();
  if (j + read_ahead_events < length) read_ahead(run[j + read_ahead_events]);
  const Event& event = run[j];
  const StableActor actor = event.actor;
  const bool core = actor.kind == Actor::Kind::core;
  std::uint32_t& own =
      core ? entry(core_chain_, actor.owner, 0, no_chain) : entry(dma_chain_, actor.owner, actor.sequence, no_chain);
  if (core && own == no_chain) own = new_chain();
  std::uint32_t me = own;  // no_chain: a DMA's first phase, whose lane is chosen below
  std::vector<std::uint32_t>& clock = clock_;
  clock.assign(order.chains_ + 1, 0);
  const auto join = [&](std::size_t i) {
    for (std::size_t p = order.rows_[i]; p < order.rows_[i + 1]; ++p)
      clock[p - order.rows_[i]] = std::max(clock[p - order.rows_[i]], order.clock_[p]);
  };
  std::vector<std::size_t>& direct = direct_;
  std::vector<std::size_t>& dependents = dependents_;
  direct.clear();
  dependents.clear();
  if (me != no_chain && latest_[me] != none) direct.push_back(latest_[me]);  // program order
  if (me == no_chain && actor.owner < creator_.size() && actor.sequence < creator_[actor.owner].size())
    direct.push_back(creator_[actor.owner][actor.sequence]);
  for (std::size_t i : direct) join(i);
  // For each other chain, its latest transition dependent with e_j among those not yet known
  // to happen before it (touch_index.hpp). The creator is ordered before the DMA by creation,
  // whatever else they touch (a start that is also its core's exit adds to the running cores
  // the phase observes): never a race, and its chain is already known up to it. Transitions
  // left at the end are not filed: they are ordered after those that ran, never after each other.
  found_.assign(order.chains_, none);
  touched_.latest_dependent(event.footprint, me, clock, found_);
  for (std::size_t i : found_)
    if (i != none) dependents.push_back(i);
  std::sort(dependents.begin(), dependents.end());
  for (std::size_t i : dependents) join(i);
  direct.insert(direct.end(), dependents.begin(), dependents.end());
  for (std::size_t i : dependents)
    if (std::none_of(direct.begin(), direct.end(), [&](std::size_t k) { return k != i && order.before(i, k); }))
      order.races_.push_back(i);
  order.races_start_.push_back(order.races_.size());

  if (me == no_chain) {
    // A DMA's first phase: the first lane whose DMA is over and whose latest transition
    // happens before this one, else a new lane. A left one makes a lane of its own.
    for (const std::uint32_t lane : lanes_)
      if (j < ran && busy_until_[lane] < j && clock[lane] >= count_[lane]) {
        me = lane;
        break;
      }
    if (me == no_chain) lanes_.push_back(me = new_chain());
    busy_until_[me] = dma_last_[actor.owner][actor.sequence];
    own = me;
  }
  order.chain_[j] = me;
  order.position_[j] = ++count_[me];
  latest_[me] = j;
  clock[me] = order.position_[j];
  const std::size_t chains = order.chains_;
  if (order.clock_.size() + chains > order.clock_.capacity())  // rows as wide as this one, one wider, to the run's end:
    order.clock_.reserve(order.clock_.size() +
                         (length - j) * (chains + 1));  // a few growths early, not a doubling each
  order.clock_.insert(order.clock_.end(), clock.begin(), clock.begin() + static_cast<std::ptrdiff_t>(chains));
  order.rows_.push_back(order.clock_.size());
  if (j < ran) touched_.file(j, me, event.footprint);
  if (event.footprint.creates && core) {
    if (creator_.size() <= actor.owner) creator_.resize(actor.owner + 1);
    creator_[actor.owner].push_back(j);
  }
}

std::size_t GrowingOrder::memory_bytes() const {
  return order_.memory_bytes() + touched_.memory_bytes() + held_bytes(dma_last_) + held_bytes(previous_dma_last_) +
         held_bytes(core_chain_) + held_bytes(dma_chain_) + held_bytes(creator_) + held_bytes(latest_) +
         held_bytes(count_) + held_bytes(busy_until_) + held_bytes(lanes_) + held_bytes(clock_) + held_bytes(direct_) +
         held_bytes(dependents_) + held_bytes(found_);
}

}  // namespace weft::scheduler
