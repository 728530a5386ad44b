#pragma once
// What a transition touches, for the explorer's independence test (docs/semantics.md §7). The
// scheduler knows no semaphores or buffers: a footprint is a list of touches of opaque objects,
// each with an optional box (a region of a multi-dimensional object) and a mode.
//
//   read / write   plain access; two touches conflict when their boxes overlap and one writes
//   add            a counter increment; adds commute with each other (counts add up) unless
//                  `ordered` (semaphore signals whose order decides a waiter's clock)
//   take           a counter decrement that needs the count to be large enough (a semaphore
//                  wait): conflicts with every other touch of the counter
//   observe        reads a counter (a semaphore read; a DMA phase observing that cores are
//                  still running): conflicts with add and take
//
// Two transitions are dependent when any of their touches conflict; a signal that enables a
// wait is an add against a take, so enabling counts as dependence.

#include <array>
#include <cstdint>
#include <vector>

namespace weft::scheduler {

struct ObjectId {
  std::uint32_t kind = 0;
  std::int64_t a = 0, b = 0, c = 0;
  friend bool operator==(const ObjectId&, const ObjectId&) = default;
};

// Kinds from 2^31 up are the scheduler's own pseudo-objects, never a simulated one's.
// The end of a run: written by its last transition, read by those it left enabled
// (scheduler/strategies/explorer.cpp, the race analysis).
inline constexpr ObjectId run_end_object{std::uint32_t{1} << 31};

struct Box {
  int rank = 0;  // 0: the whole object
  std::array<std::int64_t, 4> start{};
  std::array<std::int64_t, 4> size{};
  bool overlaps(const Box& other) const;
  friend bool operator==(const Box&, const Box&) = default;
};

enum class TouchMode : std::uint8_t { read, write, add, take, observe };

struct Touch {
  ObjectId object;
  TouchMode mode = TouchMode::read;
  Box box;
  std::int64_t amount = 0;  // add / take
  bool ordered = false;     // add: does not commute with other adds
  friend bool operator==(const Touch&, const Touch&) = default;
};

struct Footprint {
  std::vector<Touch> touches;
  // The transition creates an actor (a DMA) that belongs to this one: the k-th creation of an
  // owner makes the actors with StableActor::sequence k, which run only after it.
  bool creates = false;
  friend bool operator==(const Footprint&, const Footprint&) = default;
};

bool conflict(const Touch& a, const Touch& b);
bool dependent(const Footprint& a, const Footprint& b);

}  // namespace weft::scheduler
