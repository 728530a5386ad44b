#pragma once
// Random runs for the explorer's differential tests (happens-before against its plain
// construction, a grown order against one made from nothing): `cores` cores over a few objects,
// reading and writing boxes, signalling (adds, some ordered), waiting (takes), reading semaphores
// (observes) and starting DMAs, each started DMA's read and write phases some time after its
// start. With `views`, some boxes are of rank 2 (another view of the object, which meets every
// box of rank 1) or empty.
//
// RunMaker makes one event at a time, so that a test can go on from one point of a run two ways
// (a copy of the maker drawing from another generator).

#include <cstdint>
#include <utility>
#include <vector>

#include "scheduler/rng.hpp"
#include "scheduler/strategies/dependence.hpp"

namespace weft::scheduler {

class RunMaker {
 public:
  RunMaker(Rng& rng, std::uint32_t cores, bool views) : rng_(&rng), cores_(cores), views_(views), started_(cores, 0) {}

  // This maker as it is, drawing from `rng` from now on.
  RunMaker drawing_from(Rng& rng) const {
    RunMaker copy = *this;
    copy.rng_ = &rng;
    return copy;
  }

  Event next() {
    Rng& rng = *rng_;
    Event event;
    if (!pending_.empty() && rng.below(3) == 0) {
      const std::size_t k = rng.below(pending_.size());
      event.actor = pending_[k].first;
      event.actor.kind = pending_[k].second == 2 ? Actor::Kind::dma_read : Actor::Kind::dma_write;
      if (--pending_[k].second == 0) pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(k));
    } else {
      const auto core = static_cast<std::uint32_t>(rng.below(cores_));
      event.actor = {Actor::Kind::core, core, 0};
      if (rng.below(4) == 0) {
        event.footprint.creates = true;
        pending_.push_back({{Actor::Kind::dma_read, core, started_[core]++}, 2});
      }
    }
    for (std::uint64_t t = 0, touches = rng.below(3); t < touches; ++t) event.footprint.touches.push_back(touch());
    return event;
  }

 private:
  Touch touch() {
    Rng& rng = *rng_;
    Touch touch;
    const auto mode = rng.below(5);
    if (mode < 2) {
      touch.object = {1, static_cast<std::int64_t>(rng.below(3)), 0, 0};
      touch.mode = mode == 0 ? TouchMode::read : TouchMode::write;
      if (rng.below(2) == 0)
        touch.box = {1, {static_cast<std::int64_t>(rng.below(4))}, {1 + static_cast<std::int64_t>(rng.below(2))}};
      if (views_ && rng.below(5) == 0) touch.box = {2, {static_cast<std::int64_t>(rng.below(3)), 0}, {1, 2}};
      if (views_ && rng.below(9) == 0) touch.box = {1, {static_cast<std::int64_t>(rng.below(4))}, {0}};
    } else {
      touch.object = {2, static_cast<std::int64_t>(rng.below(2)), 0, 0};
      touch.mode = mode == 2 ? TouchMode::add : mode == 3 ? TouchMode::take : TouchMode::observe;
      touch.amount = 1;
      touch.ordered = rng.below(3) == 0;
    }
    return touch;
  }

  Rng* rng_;
  std::uint32_t cores_;
  bool views_;
  std::vector<std::uint32_t> started_;
  std::vector<std::pair<StableActor, int>> pending_;  // DMA, phases left
};

inline std::vector<Event> random_run(Rng& rng, std::uint32_t cores, std::size_t length, bool views = false) {
  RunMaker maker(rng, cores, views);
  std::vector<Event> run;
  while (run.size() < length) run.push_back(maker.next());
  return run;
}

}  // namespace weft::scheduler
