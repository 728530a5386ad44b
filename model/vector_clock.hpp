#pragma once
// Vector clocks over actor slots (cores first, then DMA lanes: model/race_detector.hpp), and
// epochs: one actor's clock value, which is all an access record needs (FastTrack). A missing
// entry reads as 0.
//
// Sharing. Race detection copies clocks far more often than it changes many entries of one:
// every signal in precise mode keeps the releaser's clock, every DMA starts from its starter's,
// and the releaser or starter then ticks one entry. So a clock is a handle on block storage
// shared by reference count (from a ClockArena) plus a few entries of its own, *overrides*, that
// supersede the storage's. Copying a clock shares its storage: no pass over the entries. Setting
// or ticking an entry writes the storage in place when the clock is its only holder, else an
// override (and only when the overrides are full is the storage copied). A join is one pass
// over the entries, in place when the storage is the clock's alone, else into fresh storage
// (copy on write); two clocks on the same storage, such as a core's and the clock of a DMA it
// started, join through their overrides alone. On a ring all-gather that is one pass per ring
// step where three copies and two joins took five (docs/performance.md).
//
// Storage holds only the 64-slot blocks that may be non-zero, in block order, with a bitmap
// naming them (model/clock_blocks.hpp): a join passes over the other clock's blocks (and moves
// this clock's when it gains some), a copy copies the clock's own, so on a ring whose slots are
// adjacent (model/clock_slots.hpp) their cost and a clock's memory are the ring's slots, not the
// machine's.
//
// The arena recycles storage with its capacity, so a warm execution allocates nothing. Clocks
// that join or share must come from the same arena, which must outlive them.

#include <array>
#include <cstdint>
#include <vector>

#include "model/clock_blocks.hpp"
#include "model/shared_storage.hpp"

namespace weft::model {

struct Epoch {
  std::uint32_t slot = 0;
  std::uint32_t clock = 0;
  friend bool operator==(const Epoch&, const Epoch&) = default;
};

class ClockArena : public SharedStorage<ClockBlocks> {
 public:
  using Entries = ClockBlocks;

  // Storage held once, all zeros (capacity kept from an earlier use).
  int acquire() {
    return SharedStorage::acquire([](Entries& entries) { entries.reset(); });
  }
  // Valid until the next acquire (which may move the storage records, not their entries).
  Entries& entries(int storage) { return contents(storage); }
  const Entries& entries(int storage) const { return contents(storage); }
};

class VectorClock {
 public:
  using Arena = ClockArena;

  explicit VectorClock(ClockArena& arena) : arena_(&arena) {}
  VectorClock(const VectorClock& other)
      : arena_(other.arena_),
        values_(other.values_),
        words_(other.words_),
        storage_(other.storage_),
        word_count_(other.word_count_),
        overrides_(other.overrides_),
        own_(other.own_) {
    if (storage_ >= 0) arena_->retain(storage_);
  }
  VectorClock(VectorClock&& other) noexcept;
  VectorClock& operator=(const VectorClock& other);
  VectorClock& operator=(VectorClock&& other) noexcept;
  ~VectorClock() { clear(); }

  std::uint32_t get(std::size_t slot) const {
    for (std::size_t i = 0; i < overrides_; ++i)
      if (own_[i].slot == slot) return own_[i].value;
    return ClockBlocks::read(words_, word_count_, values_, slot);
  }
  void set(std::size_t slot, std::uint32_t value);
  void tick(std::size_t slot) { set(slot, get(slot) + 1); }
  // The entry-wise maximum; the one loop race detection spends most of its time in on large
  // machines (vector_clock.cpp is compiled for vectorization): over the other's blocks.
  void join(const VectorClock& other);
  // Becomes `starter` with `slot` at `value` (a DMA lane going on from the core starting its
  // DMA): a copy, sharing the starter's storage.
  void continue_from(const VectorClock& starter, std::size_t slot, std::uint32_t value) {
    *this = starter;
    set(slot, value);
  }
  // Becomes the zero clock, letting go of its storage.
  void clear() {
    if (storage_ >= 0) arena_->release(storage_);
    storage_ = -1;
    values_ = nullptr;
    words_ = nullptr;
    word_count_ = 0;
    overrides_ = 0;
  }

  Epoch epoch(std::size_t slot) const { return {static_cast<std::uint32_t>(slot), get(slot)}; }
  // Whether the event of `epoch` happens before (or is) the present of this clock.
  bool knows(Epoch epoch) const { return epoch.clock <= get(epoch.slot); }
  // One past the highest slot held (entries beyond read as 0).
  std::size_t size() const;

  static constexpr std::size_t max_overrides = 4;

 private:
  struct Override {
    std::uint32_t slot = 0;
    std::uint32_t value = 0;
  };
  // Writes `value` into storage this clock alone holds (acquiring it if it has none).
  void write(std::size_t slot, std::uint32_t value);
  void swap(VectorClock& other) noexcept;
  // Gives the clock storage of its own with its overrides folded in.
  void own_storage();
  // Notes where the storage's entries are. They move only when written, which only their sole
  // holder does (and then notes it), so a copy's note stays right while it shares them.
  void look_at_storage();

  ClockArena* arena_;
  // The storage's blocks, which get() reads without the arena.
  const std::uint32_t* values_ = nullptr;
  const ClockWord* words_ = nullptr;
  int storage_ = -1;  // -1: none, every entry not overridden is 0
  // Slots are 32-bit, so a storage has at most 2^20 bitmap words; so packed a clock is 64 bytes.
  std::uint32_t word_count_ : 24 = 0;
  std::uint32_t overrides_ : 8 = 0;
  std::array<Override, max_overrides> own_{};
};

}  // namespace weft::model
