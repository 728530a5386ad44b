#pragma once
// The explorer's relations between transitions, by actor and footprint (scheduler/footprint.hpp
// has the footprint dependence itself).
//
// A *process* is what program order runs through: a core, or one DMA (its read phase, then its
// write phase). Two transitions are *related* when the first may be ordered before the second
// only as it is: same process, dependent footprints, or the first creates the DMA the second
// belongs to.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "scheduler/actor.hpp"
#include "scheduler/footprint.hpp"

namespace weft::scheduler {

using ProcessId = std::pair<int, std::pair<std::uint32_t, std::uint32_t>>;

inline ProcessId process_of(StableActor actor) {
  if (actor.kind == Actor::Kind::core) return {0, {actor.owner, 0}};
  return {1, {actor.owner, actor.sequence}};
}

inline bool same_process(StableActor a, StableActor b) { return process_of(a) == process_of(b); }

inline bool related(StableActor a, const Footprint& fa, StableActor b, const Footprint& fb) {
  if (same_process(a, b) || dependent(fa, fb)) return true;
  return fa.creates && b.kind != Actor::Kind::core && b.owner == a.owner;
}

// A transition of a run: who took it, and what it touched.
struct Event {
  StableActor actor;
  Footprint footprint;
};

// Passes over a run read its events in order, and each event's touches are a heap block of their
// own: past what the caches hold (a run of 100,000 steps keeps tens of megabytes), every event
// waited for its block. A pass asks for the event that many events ahead of it, so the blocks
// arrive while it works (the first four cache lines: two touches, more than most hold). Written
// out line by line: GCC drops __builtin_prefetch calls made in a loop.
inline constexpr std::size_t read_ahead_events = 8;
inline void read_ahead(const Event& event) {
  const char* touches = reinterpret_cast<const char*>(event.footprint.touches.data());
  __builtin_prefetch(touches);
  __builtin_prefetch(touches + 64);
  __builtin_prefetch(touches + 128);
  __builtin_prefetch(touches + 192);
}

}  // namespace weft::scheduler
