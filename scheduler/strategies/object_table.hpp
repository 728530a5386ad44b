#pragma once
// A table from a footprint's object (scheduler/footprint.hpp) to a value, for the race
// analysis' per-run tables (touch_index.hpp, reversibility.hpp).
//
// Why not std::unordered_map: those tables are rebuilt for every explored run and looked up
// once or twice per touch of the run; a node map allocated a node per object and chased two
// pointers a lookup, most of them cache misses on long runs. Here the keys sit in one array
// probed linearly (open addressing, at most half full, so a lookup reads one or two adjacent
// slots), and the values in a second array in the order their objects were first looked up.
//
// Contract: insertion only (nothing is erased); a value's index never changes, a reference to it
// holds until the next lookup that adds an object. The table offers no iteration, so nothing the
// explorer decides can follow its order.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scheduler/footprint.hpp"

namespace weft::scheduler {

template <class Value>
class ObjectTable {
 public:
  static constexpr std::uint32_t absent = ~std::uint32_t{0};

  // The index of `object`'s value, a default-constructed one made when the object is new.
  std::uint32_t index(const ObjectId& object) {
    if (2 * (values_.size() + 1) > slots_.size()) grow();
    Slot& slot = slots_[probe(object)];
    if (slot.value == absent) {
      slot = {object, static_cast<std::uint32_t>(values_.size())};
      values_.emplace_back();
    }
    return slot.value;
  }
  // The index of `object`'s value, or `absent`.
  std::uint32_t find(const ObjectId& object) const { return slots_.empty() ? absent : slots_[probe(object)].value; }

  Value& operator[](const ObjectId& object) { return values_[index(object)]; }
  Value& at(std::uint32_t index) { return values_[index]; }
  const Value& at(std::uint32_t index) const { return values_[index]; }
  std::size_t size() const { return values_.size(); }
  // The heap bytes of its two arrays (what a value holds on the heap is the caller's to count).
  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot) + values_.capacity() * sizeof(Value); }

 private:
  struct Slot {
    ObjectId object;
    std::uint32_t value = absent;
  };

  // Four independent products (they run side by side), folded so the mask's low bits see them all.
  static std::size_t hash(const ObjectId& object) {
    const std::uint64_t hash = object.kind * 0x9E3779B97F4A7C15ull ^
                               static_cast<std::uint64_t>(object.a) * 0xC2B2AE3D27D4EB4Full ^
                               static_cast<std::uint64_t>(object.b) * 0x165667B19E3779F9ull ^
                               static_cast<std::uint64_t>(object.c) * 0xD6E8FEB86659FD93ull;
    return static_cast<std::size_t>(hash ^ (hash >> 29) ^ (hash >> 47));
  }
  // The slot holding `object`, or the empty slot where it would go.
  std::size_t probe(const ObjectId& object) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = hash(object) & mask;
    while (slots_[at].value != absent && !(slots_[at].object == object)) at = (at + 1) & mask;
    return at;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    for (const Slot& slot : old)
      if (slot.value != absent) slots_[probe(slot.object)] = slot;
  }

  std::vector<Slot> slots_;  // a power of two of them, at most half holding an object
  std::vector<Value> values_;
};

}  // namespace weft::scheduler
