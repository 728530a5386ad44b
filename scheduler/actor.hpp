#pragma once
// An actor is whatever the scheduler can pick at a step (docs/semantics.md §6): a core, or one phase
// of a pending DMA. The scheduler knows actors only by kind and index; what they do is the
// simulator's business.

#include <compare>
#include <cstdint>
#include <string>

namespace weft::scheduler {

struct Actor {
  enum class Kind : std::uint8_t { core, dma_read, dma_write };
  Kind kind = Kind::core;
  std::uint32_t index = 0;  // global core id, or DMA id

  friend auto operator<=>(const Actor&, const Actor&) = default;
};

inline Actor core_actor(std::uint32_t global_core) { return {Actor::Kind::core, global_core}; }

// An actor's name that does not depend on the order in which DMAs happened to start: a core by
// its global id; a DMA phase by the core that started the DMA and how many DMAs that core had
// started before it. The explorer replays prefixes in other orders, so it speaks of these.
struct StableActor {
  Actor::Kind kind = Actor::Kind::core;
  std::uint32_t owner = 0;
  std::uint32_t sequence = 0;

  friend auto operator<=>(const StableActor&, const StableActor&) = default;
};

std::string to_string(Actor actor);  // "c3", "r12", "w12"

}  // namespace weft::scheduler
