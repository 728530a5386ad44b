#pragma once
// An actor is whatever the scheduler can pick at a step (semantics.md §6): a core, or one phase
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

std::string to_string(Actor actor);  // "c3", "r12", "w12"

}  // namespace weft::scheduler
