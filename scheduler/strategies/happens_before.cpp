#include "scheduler/strategies/happens_before.hpp"

#include <algorithm>

namespace weft::scheduler {

namespace {

// A sorted vector as a small map: a run has some dozens of processes and creations, and a node
// allocation each (std::map) cost more than the lookups.
template <class Key>
using SmallMap = std::vector<std::pair<Key, std::size_t>>;

template <class Key>
auto position_of(SmallMap<Key>& entries, const Key& key) {
  return std::lower_bound(entries.begin(), entries.end(), key, [](const auto& entry, const Key& k) { return entry.first < k; });
}

// The value of `key`, inserted as `fresh` if it is new.
template <class Key>
std::size_t& slot_of(SmallMap<Key>& entries, const Key& key, std::size_t fresh) {
  auto it = position_of(entries, key);
  if (it == entries.end() || !(it->first == key)) it = entries.insert(it, {key, fresh});
  return it->second;
}

}  // namespace

HappensBefore::HappensBefore(std::span<const Event> run, std::size_t ran) : process_(run.size()), position_(run.size()) {
  const std::size_t length = run.size();
  SmallMap<ProcessId> process_index;
  for (std::size_t j = 0; j < length; ++j)
    process_[j] = slot_of(process_index, process_of(run[j].actor), process_index.size());
  processes_ = process_index.size();
  clock_.assign(length * processes_, 0);
  races_start_.reserve(length + 1);
  races_start_.push_back(0);

  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> latest(processes_, none);  // each process's latest transition so far
  std::vector<std::uint32_t> count(processes_, 0);     // and how many it has had (the latest's position)
  std::vector<std::size_t> previous(length, none);    // the transition before e_j in its process
  SmallMap<std::pair<std::uint32_t, std::uint32_t>> creator;  // (owner, k) -> event
  std::vector<std::uint32_t> creations;                       // per core owner
  std::vector<std::size_t> direct, dependents;
  for (std::size_t j = 0; j < length; ++j) {
    const Event& event = run[j];
    const std::size_t me = process_[j];
    std::uint32_t* clock = &clock_[j * processes_];
    const auto join = [&](std::size_t i) {
      const std::uint32_t* other = &clock_[i * processes_];
      for (std::size_t p = 0; p < processes_; ++p) clock[p] = std::max(clock[p], other[p]);
    };
    direct.clear();
    dependents.clear();
    previous[j] = latest[me];
    if (latest[me] != none) direct.push_back(latest[me]);
    std::size_t made_by = length;  // the core event that created j's DMA, if j is its first phase
    if (event.actor.kind != Actor::Kind::core && latest[me] == none) {
      const std::pair<std::uint32_t, std::uint32_t> key{event.actor.owner, event.actor.sequence};
      const auto made = position_of(creator, key);
      if (made != creator.end() && made->first == key) direct.push_back(made_by = made->second);
    }
    for (std::size_t i : direct) join(i);
    // For each other process, its latest transition dependent with e_j among those not yet known
    // to happen before it. The creator is ordered before the DMA by creation, whatever else they
    // touch (a start that is also its core's exit adds to the running cores the phase observes):
    // never a race, and its process is already known up to it.
    for (std::size_t p = 0; p < processes_; ++p) {
      if (p == me || count[p] <= clock[p]) continue;  // none of its transitions is concurrent with e_j
      std::size_t from = latest[p];
      while (j >= ran && from != none && from >= ran) from = previous[from];  // left ones: unordered
      for (std::size_t i = from; i != none && position_[i] > clock[p]; i = previous[i]) {
        if (dependent(run[i].footprint, event.footprint)) {
          dependents.push_back(i);
          break;
        }
      }
    }
    std::sort(dependents.begin(), dependents.end());
    for (std::size_t i : dependents) join(i);
    direct.insert(direct.end(), dependents.begin(), dependents.end());
    for (std::size_t i : dependents)
      if (std::none_of(direct.begin(), direct.end(), [&](std::size_t k) { return k != i && before(i, k); }))
        races_.push_back(i);
    races_start_.push_back(races_.size());

    position_[j] = ++count[me];
    latest[me] = j;
    clock[me] = static_cast<std::uint32_t>(position_[j]);
    if (event.footprint.creates && event.actor.kind == Actor::Kind::core) {
      if (creations.size() <= event.actor.owner) creations.resize(event.actor.owner + 1, 0);
      slot_of(creator, {event.actor.owner, creations[event.actor.owner]++}, none) = j;
    }
  }
}

}  // namespace weft::scheduler
