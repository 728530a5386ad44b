#pragma once
// The enabled actors of an execution, kept up to date as it runs rather than rebuilt per step (a
// step costs the same on 4 cores as on 1,024): the engine sets a core's status when it may have
// changed, and DMA phases come and go with their DMA.
//
// Invariant: actors() is the enabled cores by global id ascending, then the enabled DMA phases
// by DMA id ascending, at most one phase per DMA.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/actor.hpp"

namespace weft::sim {

class EnabledSet {
 public:
  explicit EnabledSet(std::size_t cores) : listed_(cores, false) {}

  std::span<const scheduler::Actor> actors() const { return actors_; }
  std::size_t cores() const { return cores_; }

  // Core `core` is enabled now, or not.
  void set_core(std::uint32_t core, bool enabled) {
    if (enabled == static_cast<bool>(listed_[core])) return;
    listed_[core] = enabled;
    const scheduler::Actor actor = scheduler::core_actor(core);
    const auto at = std::lower_bound(actors_.begin(), cores_end(), actor, by_index);
    if (enabled) {
      actors_.insert(at, actor);
      ++cores_;
    } else {
      actors_.erase(at);
      --cores_;
    }
  }
  // DMA `dma`'s phase `kind` is enabled; `dma` is above every listed DMA's id.
  void add_phase(int dma, scheduler::Actor::Kind kind = scheduler::Actor::Kind::dma_read) {
    actors_.push_back({kind, static_cast<std::uint32_t>(dma)});
  }
  // DMA `dma`'s phase ran: its write phase is enabled next, or (`over`) the DMA leaves.
  void phase_ran(int dma, bool over) {
    const scheduler::Actor actor{scheduler::Actor::Kind::dma_read, static_cast<std::uint32_t>(dma)};
    const auto listed = std::lower_bound(cores_end(), actors_.end(), actor, by_index);
    if (listed == actors_.end() || listed->index != actor.index) return;
    if (over) actors_.erase(listed);
    else listed->kind = scheduler::Actor::Kind::dma_write;
  }
  // Every phase leaves (a policy that chooses the phases afresh, then adds them back).
  void drop_phases() { actors_.resize(cores_); }

 private:
  static bool by_index(scheduler::Actor a, scheduler::Actor b) { return a.index < b.index; }
  std::vector<scheduler::Actor>::iterator cores_end() { return actors_.begin() + static_cast<std::ptrdiff_t>(cores_); }

  std::vector<scheduler::Actor> actors_;
  std::size_t cores_ = 0;     // the enabled cores: the first entries of actors_
  std::vector<char> listed_;  // per core: listed in actors_
};

}  // namespace weft::sim
