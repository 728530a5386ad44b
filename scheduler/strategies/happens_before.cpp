#include "scheduler/strategies/happens_before.hpp"

#include <algorithm>
#include <map>

namespace weft::scheduler {

HappensBefore::HappensBefore(std::span<const Event> run) : process_(run.size()), position_(run.size()) {
  const std::size_t length = run.size();
  std::map<ProcessId, std::size_t> process_index;
  for (std::size_t j = 0; j < length; ++j)
    process_[j] = process_index.try_emplace(process_of(run[j].actor), process_index.size()).first->second;
  processes_ = process_index.size();
  clock_.assign(length * processes_, 0);
  races_start_.reserve(length + 1);
  races_start_.push_back(0);

  std::vector<std::vector<std::size_t>> events_of(processes_);  // each process's transitions so far
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> creator;  // (owner, k) -> event
  std::vector<std::uint32_t> creations;                                     // per core owner
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
    if (!events_of[me].empty()) direct.push_back(events_of[me].back());
    std::size_t made_by = length;  // the core event that created j's DMA, if j is its first phase
    if (event.actor.kind != Actor::Kind::core && events_of[me].empty()) {
      const auto made = creator.find({event.actor.owner, event.actor.sequence});
      if (made != creator.end()) direct.push_back(made_by = made->second);
    }
    for (std::size_t i : direct) join(i);
    // For each other process, its latest transition dependent with e_j among those not yet known
    // to happen before it. The creator is ordered before the DMA by creation, whatever else they
    // touch (a start that is also its core's exit adds to the running cores the phase observes):
    // never a race, and its process is already known up to it.
    for (std::size_t p = 0; p < processes_; ++p) {
      if (p == me) continue;
      const auto& events = events_of[p];
      for (std::size_t n = events.size(); n > clock[p]; --n) {
        const std::size_t i = events[n - 1];
        if (dependent(run[i].footprint, event.footprint)) {
          dependents.push_back(i);
          break;
        }
      }
    }
    std::sort(dependents.begin(), dependents.end());
    for (std::size_t i : dependents) join(i);
    direct.insert(direct.end(), dependents.begin(), dependents.end());
    const auto before_this = [&](std::size_t i, std::size_t k) { return clock_[k * processes_ + process_[i]] >= position_[i]; };
    for (std::size_t i : dependents)
      if (std::none_of(direct.begin(), direct.end(), [&](std::size_t k) { return k != i && before_this(i, k); }))
        races_.push_back(i);
    races_start_.push_back(races_.size());

    events_of[me].push_back(j);
    position_[j] = events_of[me].size();
    clock[me] = static_cast<std::uint32_t>(position_[j]);
    if (event.footprint.creates && event.actor.kind == Actor::Kind::core) {
      if (creations.size() <= event.actor.owner) creations.resize(event.actor.owner + 1, 0);
      creator[{event.actor.owner, creations[event.actor.owner]++}] = j;
    }
  }
}

}  // namespace weft::scheduler
