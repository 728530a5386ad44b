#include "scheduler/strategies/happens_before.hpp"

#include <algorithm>
#include <map>

namespace weft::scheduler {

HappensBefore::HappensBefore(std::span<const Event> run)
    : process_(run.size()), position_(run.size()), direct_(run.size()), conflicts_(run.size()) {
  const std::size_t length = run.size();
  std::map<ProcessId, std::size_t> process_index;
  std::vector<std::size_t> last_of;  // per process: index + 1 of its latest event
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> creator;  // (owner, k) -> event
  std::vector<std::uint32_t> creations;                                     // per core owner
  for (std::size_t j = 0; j < length; ++j) {
    const auto [it, fresh] = process_index.try_emplace(process_of(run[j].actor), process_index.size());
    process_[j] = it->second;
    if (fresh) last_of.push_back(0);
  }
  processes_ = process_index.size();
  clock_.assign(length, std::vector<std::uint32_t>(processes_, 0));
  std::vector<std::uint32_t> count(processes_, 0);
  for (std::size_t j = 0; j < length; ++j) {
    const Event& event = run[j];
    if (last_of[process_[j]] > 0) direct_[j].push_back(last_of[process_[j]] - 1);
    std::size_t made_by = length;  // the core event that created j's DMA, if j is its first phase
    if (event.actor.kind != Actor::Kind::core && last_of[process_[j]] == 0) {
      const auto made = creator.find({event.actor.owner, event.actor.sequence});
      if (made != creator.end()) made_by = made->second;
      if (made != creator.end()) direct_[j].push_back(made_by);
    }
    // The creator is ordered before the DMA by creation, whatever else they touch (a start that
    // is also its core's exit adds to the running cores the phase observes): never a race.
    for (std::size_t i = 0; i < j; ++i)
      if (process_[i] != process_[j] && i != made_by && dependent(run[i].footprint, event.footprint))
        conflicts_[j].push_back(i);
    direct_[j].insert(direct_[j].end(), conflicts_[j].begin(), conflicts_[j].end());
    for (std::size_t i : direct_[j])
      for (std::size_t p = 0; p < processes_; ++p) clock_[j][p] = std::max(clock_[j][p], clock_[i][p]);
    position_[j] = ++count[process_[j]];
    clock_[j][process_[j]] = static_cast<std::uint32_t>(position_[j]);
    last_of[process_[j]] = j + 1;
    if (event.footprint.creates && event.actor.kind == Actor::Kind::core) {
      if (creations.size() <= event.actor.owner) creations.resize(event.actor.owner + 1, 0);
      creator[{event.actor.owner, creations[event.actor.owner]++}] = j;
    }
  }
}

}  // namespace weft::scheduler
