#include "model/vector_clock.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace weft::model {

VectorClock::VectorClock(VectorClock&& other) noexcept : VectorClock(*other.arena_) { swap(other); }

VectorClock& VectorClock::operator=(const VectorClock& other) {
  VectorClock copy(other);  // first: `other` may be this clock
  swap(copy);               // the copy lets go of what this clock held
  return *this;
}

VectorClock& VectorClock::operator=(VectorClock&& other) noexcept {
  VectorClock taken(std::move(other));
  swap(taken);
  return *this;
}

void VectorClock::swap(VectorClock& other) noexcept {
  std::swap(arena_, other.arena_);
  std::swap(storage_, other.storage_);
  std::swap(values_, other.values_);
  std::swap(words_, other.words_);
  const std::uint32_t word_count = word_count_, overrides = overrides_;  // bit-fields: no std::swap
  word_count_ = other.word_count_;
  overrides_ = other.overrides_;
  other.word_count_ = word_count;
  other.overrides_ = overrides;
  std::swap(own_, other.own_);
}

std::size_t VectorClock::size() const {
  std::size_t size = storage_ < 0 ? 0 : arena_->entries(storage_).size;
  for (std::size_t i = 0; i < overrides_; ++i) size = std::max<std::size_t>(size, own_[i].slot + std::size_t{1});
  return size;
}

void VectorClock::write(std::size_t slot, std::uint32_t value) {
  if (storage_ < 0) storage_ = arena_->acquire();
  arena_->entries(storage_).write(slot, value);
  look_at_storage();
}

void VectorClock::look_at_storage() {
  if (storage_ < 0) {
    values_ = nullptr;
    words_ = nullptr;
    word_count_ = 0;
    return;
  }
  const ClockArena::Entries& entries = arena_->entries(storage_);
  values_ = entries.values.data();
  words_ = entries.words.data();
  word_count_ = static_cast<std::uint32_t>(entries.words.size());
}

void VectorClock::set(std::size_t slot, std::uint32_t value) {
  for (std::size_t i = 0; i < overrides_; ++i) {
    if (own_[i].slot == slot) {
      own_[i].value = value;
      return;
    }
  }
  if (storage_ < 0 || !arena_->shared(storage_)) {
    write(slot, value);
  } else if (overrides_ < max_overrides) {
    own_[overrides_++] = {static_cast<std::uint32_t>(slot), value};
  } else {
    own_storage();
    write(slot, value);
  }
}

void VectorClock::own_storage() {
  const int fresh = arena_->acquire();
  if (storage_ >= 0) {
    const ClockArena::Entries& old = arena_->entries(storage_);  // after acquire, which may move records
    arena_->entries(fresh).assign(old);
    arena_->release(storage_);
  }
  storage_ = fresh;
  look_at_storage();
  const std::uint32_t count = overrides_;
  overrides_ = 0;
  for (std::size_t i = 0; i < count; ++i) write(own_[i].slot, own_[i].value);
}

void VectorClock::join(const VectorClock& other) {
  assert(other.arena_ == arena_);
  // The entries some override decides, as the join has them: computed before anything changes.
  std::array<Override, 2 * max_overrides> decided{};
  std::size_t count = 0;
  const auto decide = [&](std::uint32_t slot) {
    for (std::size_t i = 0; i < count; ++i)
      if (decided[i].slot == slot) return;
    decided[count++] = {slot, std::max(get(slot), other.get(slot))};
  };
  for (std::size_t i = 0; i < overrides_; ++i) decide(own_[i].slot);
  for (std::size_t i = 0; i < other.overrides_; ++i) decide(other.own_[i].slot);

  if (other.storage_ < 0 || other.storage_ == storage_) {
    // The other's storage adds nothing (it has none, or it is ours): only decided entries change.
    for (std::size_t i = 0; i < count; ++i)
      if (decided[i].value != get(decided[i].slot)) set(decided[i].slot, decided[i].value);
    return;
  }
  if (storage_ < 0) {
    // Nothing of ours below the overrides: share the other's storage.
    arena_->retain(other.storage_);
    storage_ = other.storage_;
    look_at_storage();
    overrides_ = 0;
    for (std::size_t i = 0; i < count; ++i)
      if (decided[i].value != get(decided[i].slot)) set(decided[i].slot, decided[i].value);
    return;
  }
  // Over the other's blocks: in place when the storage is ours alone, else into fresh storage
  // that starts as a copy of ours.
  if (arena_->shared(storage_)) {
    const int fresh = arena_->acquire();
    arena_->entries(fresh).assign(arena_->entries(storage_));  // after acquire, which may move records
    arena_->release(storage_);
    storage_ = fresh;
  }
  arena_->entries(storage_).join(arena_->entries(other.storage_));
  look_at_storage();
  overrides_ = 0;
  for (std::size_t i = 0; i < count; ++i) write(decided[i].slot, decided[i].value);
}

}  // namespace weft::model
