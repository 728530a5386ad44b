#pragma once
// A hash of a footprint's object (scheduler/footprint.hpp), for the race analysis' tables of
// objects (touch_index.hpp, reversibility.hpp). Those tables are only looked up, never iterated:
// nothing the explorer decides may follow an unordered table's order.

#include <cstddef>
#include <cstdint>

#include "scheduler/footprint.hpp"

namespace weft::scheduler {

struct ObjectHash {
  std::size_t operator()(const ObjectId& object) const noexcept {
    std::uint64_t hash = object.kind;
    for (const std::int64_t part : {object.a, object.b, object.c})
      hash = (hash ^ static_cast<std::uint64_t>(part)) * 0x9E3779B97F4A7C15ull + (hash >> 29);
    return static_cast<std::size_t>(hash ^ (hash >> 32));
  }
};

}  // namespace weft::scheduler
